/**
 * The organization's packets: search by name, a filter for test packets, the list (status, test
 * flag, created date) a page at a time, each linking to its packet page. A list of cards, not a
 * table, so it reads at 390 px without scrolling sideways.
 */
import { useEffect, useState } from 'preact/hooks';
import { describeError } from '../io/api.js';
import { packetsApi, when, type PacketPage, type PacketQuery } from '../io/packets.js';
import { useApp } from '../ui/context.js';
import { ErrorNote, Link } from '../ui/controls.js';

const SEARCH_PAUSE_MS = 250;

export function StatusBadge({ status }: { status: string }) {
  return <span class={`status status-${status}`}>{status}</span>;
}

export function Packets() {
  const { announce } = useApp();
  const [query, setQuery] = useState<PacketQuery>({ q: '', test: 'all', offset: 0 });
  const [page, setPage] = useState<PacketPage>();
  const [error, setError] = useState<string>();

  useEffect(() => {
    let stale = false;
    const timer = setTimeout(
      () => {
        packetsApi.list(query).then(
          (p) => {
            if (stale) return;
            setPage(p);
            setError(undefined);
            if (query.q || query.test !== 'all') announce(`${p.total} packet${p.total === 1 ? '' : 's'} found`);
          },
          (e) => !stale && setError(describeError(e)),
        );
      },
      query.q ? SEARCH_PAUSE_MS : 0,
    );
    return () => {
      stale = true;
      clearTimeout(timer);
    };
  }, [query]);

  const last = page ? Math.min(page.offset + page.limit, page.total) : 0;

  return (
    <section class="packets">
      <h1 tabIndex={-1}>Packets</h1>
      <div class="filters" role="search">
        <div class="search">
          <label for="packet-search">Search packets by name</label>
          <input
            id="packet-search"
            type="search"
            value={query.q}
            onInput={(e) => setQuery({ ...query, q: e.currentTarget.value, offset: 0 })}
          />
        </div>
        <div class="search">
          <label for="packet-test">Show</label>
          <select
            id="packet-test"
            value={query.test}
            onChange={(e) => setQuery({ ...query, test: e.currentTarget.value as PacketQuery['test'], offset: 0 })}
          >
            <option value="all">All packets</option>
            <option value="true">Test packets only</option>
            <option value="false">Live packets only</option>
          </select>
        </div>
      </div>
      <ErrorNote message={error} />
      {page === undefined && !error && <p role="status">Loading packets…</p>}
      {page && page.packets.length === 0 && <p>{query.q ? 'No packet matches.' : 'No packets yet.'}</p>}
      {page && page.packets.length > 0 && (
        <>
          <h2 id="packet-list-heading" class="visually-hidden">
            Packet list
          </h2>
          <ul class="packet-list" aria-labelledby="packet-list-heading">
            {page.packets.map((p) => (
              <li key={p.eid} class="packet-row">
                <h3>
                  <Link to={{ name: 'packet', eid: p.eid }}>{p.name}</Link>
                </h3>
                <p class="meta">
                  <StatusBadge status={p.status} />
                  {p.isTest && <span class="badge">Test</span>}
                  <span>Created {when(p.createdAt)}</span>
                </p>
              </li>
            ))}
          </ul>
          <nav class="pager" aria-label="Pages of packets">
            <span>
              {page.offset + 1}–{last} of {page.total}
            </span>
            <button
              type="button"
              disabled={page.offset === 0}
              onClick={() => setQuery({ ...query, offset: Math.max(0, page.offset - page.limit) })}
            >
              Previous
            </button>
            <button
              type="button"
              disabled={last >= page.total}
              onClick={() => setQuery({ ...query, offset: page.offset + page.limit })}
            >
              Next
            </button>
          </nav>
        </>
      )}
    </section>
  );
}
