import type { StackState } from './stack';

export const STATE_FILE: string;
export const PG_ADMIN: string[];
export const REDIS: string[];
export function run(cmd: string, args: string[], input?: string): string;
export function readState(): StackState | null;
export function stopStack(state: StackState): Promise<void>;
