import { describe, expect, it } from 'vitest';
import type { WorkspaceInfo } from '../../api/gen/model/workspaceInfo';
import { findWorkspace, workspaceSearchFor } from './current-workspace';
import { canDelete, canLeave, canRemove, canRename, nameProblem, roleChoices } from './workspace-rules';

const personal: WorkspaceInfo = { id: '0192f0c4-7a1e-7c3b-9a51-000000000001', name: 'Personal', personal: true, role: 'owner', monthlySpendCapUsd: null, monthSpendUsd: 0, placeMemory: true };
const shared: WorkspaceInfo = { id: '0192F0C4-7A1E-7C3B-9A51-000000000002', name: 'Acme', personal: false, role: 'admin', monthlySpendCapUsd: null, monthSpendUsd: 0, placeMemory: true };

describe('what the screens offer mirrors what the API allows', () => {
  it('only an owner makes, demotes or touches an owner; members change nothing', () => {
    expect(roleChoices('owner', 'member')).toEqual(['member', 'admin', 'owner']);
    expect(roleChoices('owner', 'owner')).toEqual(['member', 'admin', 'owner']);
    expect(roleChoices('admin', 'member')).toEqual(['member', 'admin']);
    expect(roleChoices('admin', 'admin')).toEqual(['member', 'admin']);
    expect(roleChoices('admin', 'owner')).toBeNull();
    expect(roleChoices('member', 'member')).toBeNull();
  });

  it('removing another member needs an admin, and an owner for an owner', () => {
    expect(canRemove('owner', 'owner')).toBe(true);
    expect(canRemove('admin', 'member')).toBe(true);
    expect(canRemove('admin', 'owner')).toBe(false);
    expect(canRemove('member', 'member')).toBe(false);
  });

  it('an owner renames; an owner deletes, never the personal workspace; nobody leaves their personal one', () => {
    expect(canRename(personal)).toBe(true);
    expect(canRename(shared)).toBe(false);
    expect(canDelete(personal)).toBe(false);
    expect(canDelete({ ...shared, role: 'owner' })).toBe(true);
    expect(canDelete(shared)).toBe(false);
    expect(canLeave(personal)).toBe(false);
    expect(canLeave(shared)).toBe(true);
  });

  it('a name is not blank, at most 80 characters and has no control character', () => {
    expect(nameProblem('Acme')).toBeNull();
    expect(nameProblem('   ')).toBe('Enter a name.');
    expect(nameProblem('x'.repeat(80))).toBeNull();
    expect(nameProblem('x'.repeat(81))).toMatch(/at most 80/);
    expect(nameProblem('Acme\u0007')).toMatch(/control/);
    expect(nameProblem('Acme\u0085')).toMatch(/control/);
  });
});

describe('the current workspace', () => {
  it('is the personal one without ws, else the one ws names (whatever its case)', () => {
    expect(findWorkspace([personal, shared], undefined)).toBe(personal);
    expect(findWorkspace([personal, shared], shared.id.toLowerCase())).toBe(shared);
    expect(findWorkspace([personal, shared], '0192f0c4-7a1e-7c3b-9a51-000000000009')).toBeUndefined();
    expect(findWorkspace(undefined, undefined)).toBeUndefined();
  });

  it('is written in the address only when it is not the personal one', () => {
    expect(workspaceSearchFor(personal)).toEqual({ ws: undefined });
    expect(workspaceSearchFor(shared)).toEqual({ ws: shared.id });
  });
});
