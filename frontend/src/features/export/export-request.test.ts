import { describe, expect, it } from 'vitest';
import type { Lead } from '../../lib/lead';
import { buildExportRequest } from './export-request';

describe('buildExportRequest with a full search', () => {
  it('sends all of 3,000 leads in one request body (the API writes them to Sheets in batches)', () => {
    const leads: Lead[] = Array.from({ length: 3000 }, (_, i) => ({
      name: `Dentist ${i}`,
      address: `${i} Main St`,
      phone: i % 2 ? '+1 713 555 0100' : '',
      website: '',
      placeId: `p${i}`,
    }));
    const started = performance.now();
    const body = buildExportRequest(leads, { businessType: 'dentist', location: 'Houston, TX' }, { mode: 'new', sheetName: '', worksheetName: '' });
    expect(performance.now() - started).toBeLessThan(200);
    expect(body.leads).toHaveLength(3000);
    expect(body.leads[2999]).toEqual({ placeId: 'p2999', name: 'Dentist 2999', address: '2999 Main St', phone: '+1 713 555 0100' });
    expect(body.leads[0]).toEqual({ placeId: 'p0', name: 'Dentist 0', address: '0 Main St' });
  });
});

describe('buildExportRequest with an enriched search', () => {
  const lead: Lead = {
    name: 'Blue Cup',
    address: '1 Main St',
    phone: '',
    website: 'https://bluecup.example',
    placeId: 'p1',
    contacts: { emails: ['hello@bluecup.example'], socials: { instagram: 'https://instagram.com/bluecup' } },
  };
  const target = { mode: 'new', sheetName: '', worksheetName: '' } as const;

  it('sends each lead\'s contacts and asks for the extra columns', () => {
    const body = buildExportRequest([lead], { businessType: 'cafe', location: 'Austin', enrich: true }, target);
    expect(body.enriched).toBe(true);
    expect(body.leads[0].contacts).toEqual(lead.contacts);
  });

  it('sends exactly what it always did for a search that was not enriched', () => {
    const body = buildExportRequest([lead], { businessType: 'cafe', location: 'Austin' }, target);
    expect(body).not.toHaveProperty('enriched');
    expect(body.leads[0]).toEqual({ placeId: 'p1', name: 'Blue Cup', address: '1 Main St', website: 'https://bluecup.example' });
  });
});
