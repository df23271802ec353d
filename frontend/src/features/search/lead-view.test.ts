import { describe, expect, it } from 'vitest';
import type { Lead } from '../../lib/lead';
import { filterLeads, isFiltering, nextSort, NO_FILTER, searchableText, sortLeads } from './lead-view';

const lead = (name: string, overrides: Partial<Lead> = {}): Lead => ({
  name,
  address: `${name} St`,
  phone: '',
  website: '',
  placeId: name,
  ...overrides,
});

const names = (leads: Lead[]) => leads.map((l) => l.name);

const a = lead('Alpha Dental', { rating: 4.8, reviewCount: 12, phone: '(512) 555-0199', website: 'https://www.zeta.example/' });
const b = lead('beta smiles', { rating: 3.9, reviewCount: 300, website: 'https://alpha.example/', contacts: { emails: ['hi@beta.example'], socials: {} } });
const c = lead('Gamma Dentistry', { phone: '+1 512-555-0100' });
const d = lead('Delta 10 Dental', { rating: 4.8, reviewCount: 5, phone: '512 555 0150' });
const e = lead('Delta 9 Dental', { rating: 4.2 });
const all = [a, b, c, d, e];

describe('sortLeads', () => {
  it('sorts text A to Z without regard to case, numbers in names in numeric order', () => {
    expect(names(sortLeads(all, { key: 'name', direction: 'ascending' }))).toEqual([
      'Alpha Dental',
      'beta smiles',
      'Delta 9 Dental',
      'Delta 10 Dental',
      'Gamma Dentistry',
    ]);
    expect(names(sortLeads(all, { key: 'name', direction: 'descending' }))[0]).toBe('Gamma Dentistry');
  });

  it('sorts ratings high to low, ties in the search order, unrated last either way', () => {
    expect(names(sortLeads(all, { key: 'rating', direction: 'descending' }))).toEqual([
      'Alpha Dental',
      'Delta 10 Dental',
      'Delta 9 Dental',
      'beta smiles',
      'Gamma Dentistry',
    ]);
    expect(names(sortLeads(all, { key: 'rating', direction: 'ascending' }))).toEqual([
      'beta smiles',
      'Delta 9 Dental',
      'Alpha Dental',
      'Delta 10 Dental',
      'Gamma Dentistry',
    ]);
  });

  it('sorts reviews as numbers, phones by their digits, websites without the scheme, emails', () => {
    expect(names(sortLeads(all, { key: 'reviews', direction: 'descending' })).slice(0, 3)).toEqual(['beta smiles', 'Alpha Dental', 'Delta 10 Dental']);
    expect(names(sortLeads(all, { key: 'phone', direction: 'ascending' })).slice(0, 3)).toEqual(['Gamma Dentistry', 'Delta 10 Dental', 'Alpha Dental']);
    expect(names(sortLeads(all, { key: 'website', direction: 'ascending' })).slice(0, 2)).toEqual(['beta smiles', 'Alpha Dental']);
    expect(names(sortLeads(all, { key: 'email', direction: 'descending' }))[0]).toBe('beta smiles');
  });

  it('keeps the search order without a sort, and never changes its input', () => {
    const input = [...all];
    expect(sortLeads(input, null)).toEqual(all);
    sortLeads(input, { key: 'name', direction: 'descending' });
    expect(input).toEqual(all);
  });

  it('sorts 3,000 leads quickly', () => {
    const many = Array.from({ length: 3000 }, (_, i) => lead(`Dentist ${(i * 7919) % 3000}`, { rating: (i % 50) / 10 }));
    const started = performance.now();
    const sorted = sortLeads(many, { key: 'name', direction: 'ascending' });
    sortLeads(many, { key: 'rating', direction: 'descending' });
    expect(performance.now() - started).toBeLessThan(300);
    expect(sorted[0].name).toBe('Dentist 0');
    expect(sorted[2999].name).toBe('Dentist 2999');
  });
});

describe('nextSort', () => {
  it('goes first direction, the other, then back to the search order', () => {
    expect(nextSort(null, 'name')).toEqual({ key: 'name', direction: 'ascending' });
    expect(nextSort({ key: 'name', direction: 'ascending' }, 'name')).toEqual({ key: 'name', direction: 'descending' });
    expect(nextSort({ key: 'name', direction: 'descending' }, 'name')).toBeNull();
    expect(nextSort(null, 'rating')).toEqual({ key: 'rating', direction: 'descending' });
    expect(nextSort({ key: 'rating', direction: 'descending' }, 'rating')).toEqual({ key: 'rating', direction: 'ascending' });
    expect(nextSort({ key: 'name', direction: 'ascending' }, 'rating')).toEqual({ key: 'rating', direction: 'descending' });
  });
});

describe('filterLeads', () => {
  it('finds every word, in any case, in the name, address, phone, website or emails', () => {
    expect(names(filterLeads(all, { ...NO_FILTER, text: 'DENTAL delta' }))).toEqual(['Delta 10 Dental', 'Delta 9 Dental']);
    expect(names(filterLeads(all, { ...NO_FILTER, text: 'hi@beta' }))).toEqual(['beta smiles']);
    expect(names(filterLeads(all, { ...NO_FILTER, text: '555-0100' }))).toEqual(['Gamma Dentistry']);
    expect(names(filterLeads(all, { ...NO_FILTER, text: 'zeta.example' }))).toEqual(['Alpha Dental']);
    expect(names(filterLeads(all, { ...NO_FILTER, text: '  ' }))).toEqual(names(all));
  });

  it('keeps a minimum rating (unrated leads out), and leads with a website, a phone, an email', () => {
    expect(names(filterLeads(all, { ...NO_FILTER, minRating: 4.5 }))).toEqual(['Alpha Dental', 'Delta 10 Dental']);
    expect(names(filterLeads(all, { ...NO_FILTER, hasWebsite: true }))).toEqual(['Alpha Dental', 'beta smiles']);
    expect(names(filterLeads(all, { ...NO_FILTER, hasPhone: true }))).toEqual(['Alpha Dental', 'Gamma Dentistry', 'Delta 10 Dental']);
    expect(names(filterLeads(all, { ...NO_FILTER, hasEmail: true }))).toEqual(['beta smiles']);
    expect(names(filterLeads(all, { ...NO_FILTER, hasPhone: true, hasWebsite: true, minRating: 4 }))).toEqual(['Alpha Dental']);
  });

  it('uses the precomputed text when given', () => {
    const haystacks = all.map(searchableText);
    expect(names(filterLeads(all, { ...NO_FILTER, text: 'gamma' }, haystacks))).toEqual(['Gamma Dentistry']);
  });

  it('says whether it filters', () => {
    expect(isFiltering(NO_FILTER)).toBe(false);
    expect(isFiltering({ ...NO_FILTER, text: ' ' })).toBe(false);
    expect(isFiltering({ ...NO_FILTER, hasEmail: true })).toBe(true);
  });
});
