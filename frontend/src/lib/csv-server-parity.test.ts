// The server builds the same CSV file for a delivery by email (core/src/delivery/csv.rs):
// both sides read these leads and must make exactly the committed files of them.
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildLeadsCsv } from './csv';
import type { Lead } from './lead';

const FIXTURES = resolve(__dirname, '../../../testkit/fixtures/csv');
const leads = JSON.parse(readFileSync(`${FIXTURES}/leads.json`, 'utf8')) as Lead[];

describe('the CSV file the server mails', () => {
  it.each([
    [false, 'leads.csv'],
    [true, 'leads-enriched.csv'],
  ])('is the download, byte for byte (enriched: %s)', (enriched, name) => {
    const made = `\uFEFF${buildLeadsCsv(leads, { enriched })}`;
    if (process.env.LEADGEN_WRITE_FIXTURES === '1') writeFileSync(`${FIXTURES}/${name}`, made);
    expect(made).toBe(readFileSync(`${FIXTURES}/${name}`, 'utf8'));
  });
});
