import { Banner } from '../../components/ui/banner';

/**
 * The server's words about a finished search's results (`complete.notice`): why a full
 * search stopped early (budget, allowance), or that a few places may be missing.
 */
export function SearchNotice({ notice }: { notice: string | null }) {
  if (!notice) return null;
  return (
    <Banner tone="info" title="About these results">
      {notice}
    </Banner>
  );
}
