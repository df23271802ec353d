import { Card } from '../../components/ui/card';
import { ReadOnlySwitch } from '../../components/ui/read-only-switch';

const ITEMS = [
  { label: 'Encrypt API Keys', description: 'Your API key is encrypted before it is stored and never shown in full.' },
  { label: 'Data Retention', description: 'No lead data is stored. Results go straight to your browser and your exports.' },
  { label: 'Direct API Processing', description: 'Searches call Google Places with your own key; nothing is resold or shared.' },
  { label: 'Lead Ownership', description: 'The leads you generate belong to you alone.' },
];

/** Settings > Security & Privacy: always-on guarantees (spec section 2). */
export function SecurityTab() {
  return (
    <Card>
      <h2 className="text-lg font-semibold text-slate-900">Security &amp; Privacy</h2>
      <p className="mt-1 text-sm text-slate-600">These protections are always on for every account.</p>
      <div className="mt-2 divide-y divide-slate-100">
        {ITEMS.map((item) => (
          <ReadOnlySwitch key={item.label} label={item.label} description={item.description} />
        ))}
      </div>
    </Card>
  );
}
