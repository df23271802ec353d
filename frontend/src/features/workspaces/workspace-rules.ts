import type { WorkspaceInfo } from '../../api/gen/model/workspaceInfo';
import { WorkspaceRole } from '../../api/gen/model/workspaceRole';

// What the workspace screens offer, mirroring what the API allows (api/src/routes/
// workspaces.rs), so nobody is shown a control that can only be refused. The API decides:
// what it refuses anyway (the last owner, a race with another admin) is shown as it says.

/** The roles from least to most, as the contract lists them. */
export const ROLES = Object.values(WorkspaceRole);

const RANK: Record<WorkspaceRole, number> = { member: 0, admin: 1, owner: 2 };

/** Whether `role` may do what `needed` may. */
export function atLeast(role: WorkspaceRole, needed: WorkspaceRole): boolean {
  return RANK[role] >= RANK[needed];
}

/** A role as the screens write it. */
export function roleLabel(role: WorkspaceRole): string {
  return { member: 'Member', admin: 'Admin', owner: 'Owner' }[role];
}

/** Renaming needs an owner. */
export function canRename(workspace: WorkspaceInfo): boolean {
  return workspace.role === 'owner';
}

/** Deleting needs an owner, and a personal workspace cannot be deleted. */
export function canDelete(workspace: WorkspaceInfo): boolean {
  return workspace.role === 'owner' && !workspace.personal;
}

/** Anyone may leave a shared workspace (the API refuses the last owner); nobody leaves their personal one. */
export function canLeave(workspace: WorkspaceInfo): boolean {
  return !workspace.personal;
}

/**
 * The roles `caller` may give a member whose role is `target`, or `null` when they may not
 * change it: admins and owners change roles, and only an owner makes, demotes or touches
 * an owner.
 */
export function roleChoices(caller: WorkspaceRole, target: WorkspaceRole): WorkspaceRole[] | null {
  if (!atLeast(caller, 'admin')) return null;
  if (target === 'owner' && caller !== 'owner') return null;
  return caller === 'owner' ? ROLES : ROLES.filter((role) => role !== 'owner');
}

/** Whether `caller` may remove another member whose role is `target` (leaving is separate). */
export function canRemove(caller: WorkspaceRole, target: WorkspaceRole): boolean {
  return atLeast(caller, 'admin') && (target !== 'owner' || caller === 'owner');
}

/** The most characters a workspace name may have (the contract's `maxLength`). */
export const NAME_MAX = 80;

/**
 * What is wrong with a workspace name, as the API holds it (not blank, at most 80
 * characters, no control character), or `null` when it is fine.
 */
export function nameProblem(name: string): string | null {
  if (name.trim() === '') return 'Enter a name.';
  if ([...name].length > NAME_MAX) return `A name has at most ${NAME_MAX} characters.`;
  if (/[\u0000-\u001f\u007f-\u009f]/.test(name)) return 'A name cannot contain control characters.';
  return null;
}
