// The tables the PostgreSQL scenarios write to: the article's invoice_state (with its fence column)
// and its lock table. Created on first use in the throwaway database.

import type pg from 'pg';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS invoice_state (
  id       integer PRIMARY KEY,
  last_run text,
  fence    bigint NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS locks (
  name       text PRIMARY KEY,
  owner      text NOT NULL,
  expires_at timestamptz NOT NULL
);`;

export async function ensureSchema(client: pg.Client): Promise<void> {
  await client.query(SCHEMA);
}

/** Inserts a fresh invoice_state row and returns its id. */
export async function insertInvoiceRow(client: pg.Client, id: number): Promise<number> {
  await ensureSchema(client);
  await client.query('INSERT INTO invoice_state (id, last_run, fence) VALUES ($1, NULL, 0)', [id]);
  return id;
}
