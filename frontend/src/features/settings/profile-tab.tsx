import { useId } from 'react';
import { Card } from '../../components/ui/card';
import { Input, Label } from '../../components/ui/field';
import { useAuth } from '../../lib/session/auth-context';

/** Settings > Profile: read-only account details (spec section 2). */
export function ProfileTab() {
  const { user } = useAuth();
  const id = useId();
  return (
    <Card>
      <h2 className="text-lg font-semibold text-slate-900">Profile</h2>
      <div className="mt-5 grid gap-4 sm:grid-cols-2">
        <div>
          <Label htmlFor={`${id}-email`}>Email</Label>
          <Input id={`${id}-email`} className="mt-1.5" value={user?.email ?? ''} readOnly />
        </div>
        <div>
          <Label htmlFor={`${id}-name`}>Name</Label>
          <Input id={`${id}-name`} className="mt-1.5" value={user?.name ?? ''} readOnly />
        </div>
      </div>
      <p className="mt-4 text-sm text-slate-600">
        Profile editing is coming soon. Your account is managed through your identity provider (Google).
      </p>
    </Card>
  );
}
