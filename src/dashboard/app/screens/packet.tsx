/**
 * A packet's page: its status, documents to download, and its signers in routing order with their
 * events (sent, viewed, signed: time, IP, user agent as the server recorded them) and, for an email
 * signer whose turn it is, a button that sends the signing request again. There is no "void": the
 * server has no such step.
 */
import { useEffect, useState } from 'preact/hooks';
import { describeError } from '../io/api.js';
import { packetsApi, when, type PacketDetail, type PacketSigner } from '../io/packets.js';
import { titleOf } from '../io/route.js';
import { useApp } from '../ui/context.js';
import { ErrorNote, Link } from '../ui/controls.js';
import { StatusBadge } from './packets.js';

const EVENT_NAMES = { sent: 'Request sent', viewed: 'Opened', signed: 'Signed' } as const;

function SignerCard({ packetEid, signer }: { packetEid: string; signer: PacketSigner }) {
  const { announce } = useApp();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const who = signer.name ?? signer.email ?? signer.aliasId;
  const resend = async () => {
    setBusy(true);
    setError(undefined);
    try {
      const r = await packetsApi.resend(packetEid, signer.eid);
      announce(r.queued ? `Signing request sent again to ${who}` : `Nothing to send to ${who}`);
    } catch (e) {
      setError(describeError(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <li class="signer-card">
      <h3>
        {signer.routingOrder}. {who}
      </h3>
      <p class="meta">
        <StatusBadge status={signer.status} />
        {signer.email && <span>{signer.email}</span>}
        <span>{signer.signerType === 'embedded' ? 'Embedded signer' : 'Email signer'}</span>
      </p>
      {signer.events.length === 0 ? (
        <p class="muted">No events yet.</p>
      ) : (
        <ol class="events" aria-label={`Events of ${who}`}>
          {signer.events.map((e, i) => (
            <li key={i}>
              <strong>{EVENT_NAMES[e.type]}</strong> <time dateTime={e.at}>{when(e.at)}</time>
              {e.ip && <span class="detail">IP {e.ip}</span>}
              {e.userAgent && <span class="detail">{e.userAgent}</span>}
            </li>
          ))}
        </ol>
      )}
      {signer.canResend && (
        <div class="actions">
          <button type="button" onClick={resend} disabled={busy} aria-label={`Resend request to ${who}`}>
            Resend request
          </button>
        </div>
      )}
      <ErrorNote message={error} />
    </li>
  );
}

export function PacketScreen({ eid }: { eid: string }) {
  const [packet, setPacket] = useState<PacketDetail>();
  const [error, setError] = useState<string>();

  useEffect(() => {
    packetsApi.packet(eid).then(
      (p) => {
        setPacket(p);
        document.title = titleOf({ name: 'packet', eid }, p.name);
        document.querySelector<HTMLElement>('main h1')?.focus();
      },
      (e) => setError(describeError(e)),
    );
  }, [eid]);

  return (
    <section class="packet">
      <p>
        <Link to={{ name: 'packets' }}>All packets</Link>
      </p>
      <h1 tabIndex={-1}>{packet?.name ?? 'Packet'}</h1>
      <ErrorNote message={error} />
      {!packet && !error && <p role="status">Loading the packet…</p>}
      {packet && (
        <>
          <p class="meta">
            <StatusBadge status={packet.status} />
            {packet.isTest && <span class="badge">Test</span>}
            <span>Created {when(packet.createdAt)}</span>
            {packet.completedAt && <span>Completed {when(packet.completedAt)}</span>}
          </p>
          <h2>Documents</h2>
          <ul class="documents">
            {packet.documents.map((d) => (
              <li key={d.index}>
                <a href={d.url} download={d.filename}>
                  Download {d.title ?? d.filename}
                </a>
              </li>
            ))}
          </ul>
          <h2>Signers</h2>
          <ul class="signer-list">
            {packet.signers.map((s) => (
              <SignerCard key={s.eid} packetEid={packet.eid} signer={s} />
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
