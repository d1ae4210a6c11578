/**
 * The webhooks and emails of the organization's packets: kind and status filters, each delivery's
 * status, attempts, the receiver's response code and last error, and a retry for a failed one.
 */
import { useEffect, useState } from 'preact/hooks';
import { describeError } from '../io/api.js';
import { deliveriesApi, when, type Delivery } from '../io/packets.js';
import { useApp } from '../ui/context.js';
import { ErrorNote, Link } from '../ui/controls.js';
import { StatusBadge } from './packets.js';

type Kind = 'all' | 'webhook' | 'email';
type Status = 'all' | 'pending' | 'delivered' | 'failed';

export function Deliveries() {
  const { announce } = useApp();
  const [kind, setKind] = useState<Kind>('all');
  const [status, setStatus] = useState<Status>('all');
  const [list, setList] = useState<Delivery[]>();
  const [error, setError] = useState<string>();
  const [reloads, setReloads] = useState(0);

  useEffect(() => {
    let stale = false;
    deliveriesApi.list(kind, status, 0).then(
      (r) => !stale && (setList(r.deliveries), setError(undefined)),
      (e) => !stale && setError(describeError(e)),
    );
    return () => {
      stale = true;
    };
  }, [kind, status, reloads]);

  const retry = async (d: Delivery) => {
    try {
      await deliveriesApi.retry(d);
      announce(`Delivery ${d.what} queued again`);
      setReloads((n) => n + 1);
    } catch (e) {
      setError(describeError(e));
    }
  };

  return (
    <section class="packets">
      <h1 tabIndex={-1}>Deliveries</h1>
      <div class="filters">
        <div class="search">
          <label for="delivery-kind">Kind</label>
          <select id="delivery-kind" value={kind} onChange={(e) => setKind(e.currentTarget.value as Kind)}>
            <option value="all">Webhooks and emails</option>
            <option value="webhook">Webhooks</option>
            <option value="email">Emails</option>
          </select>
        </div>
        <div class="search">
          <label for="delivery-status">Status</label>
          <select id="delivery-status" value={status} onChange={(e) => setStatus(e.currentTarget.value as Status)}>
            <option value="all">Any status</option>
            <option value="pending">Pending</option>
            <option value="delivered">Delivered</option>
            <option value="failed">Failed</option>
          </select>
        </div>
      </div>
      <ErrorNote message={error} />
      {list === undefined && !error && <p role="status">Loading deliveries…</p>}
      {list && list.length === 0 && <p>No deliveries.</p>}
      {list && list.length > 0 && (
        <ul class="packet-list" aria-label="Deliveries">
          {list.map((d) => (
            <li key={d.id} class="packet-row">
              <h2 class="delivery-title">
                {d.kind === 'webhook' ? 'Webhook' : 'Email'} {d.what}
              </h2>
              <p class="meta">
                <StatusBadge status={d.status} />
                <span>
                  {d.attempts} attempt{d.attempts === 1 ? '' : 's'}
                </span>
                {d.responseCode !== null && <span>Response {d.responseCode}</span>}
                <span>{when(d.createdAt)}</span>
              </p>
              {d.url && <p class="detail">{d.url}</p>}
              {d.lastError && <p class="detail">{d.lastError}</p>}
              <p>
                <Link to={{ name: 'packet', eid: d.packetEid }}>Packet {d.packetEid}</Link>
              </p>
              {d.canRetry && (
                <div class="actions">
                  <button type="button" onClick={() => retry(d)} aria-label={`Retry ${d.what} now`}>
                    Retry
                  </button>
                </div>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
