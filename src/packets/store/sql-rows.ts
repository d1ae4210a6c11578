/**
 * A SQL row as both drivers hand it back, the executor both stores implement, and the column
 * readers every table's mapping uses (libsql gives numbers and 0/1, pg gives strings for BIGINT
 * and booleans): one place, so the packets' tables and the workflows' read columns alike.
 */
export type Row = Record<string, unknown>;

export interface SqlExecutor {
  all(sql: string, params?: readonly unknown[]): Promise<Row[]>;
  /** Rows changed. */
  run(sql: string, params?: readonly unknown[]): Promise<number>;
}

/** Runs `fn` in one write transaction of the store. */
export type SqlTransaction = <T>(fn: (sql: SqlExecutor) => Promise<T>) => Promise<T>;

export const num = (v: unknown): number => (typeof v === 'number' ? v : Number(v));
export const numOrNull = (v: unknown): number | null => (v === null || v === undefined ? null : num(v));
export const strOrNull = (v: unknown): string | null => (v === null || v === undefined ? null : String(v));
export const bool = (v: unknown): boolean => v === true || num(v) === 1;
export const json = <T>(v: unknown): T => JSON.parse(String(v)) as T;
