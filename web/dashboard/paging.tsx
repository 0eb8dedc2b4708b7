/**
 * A list page's cursor paging (Payments, Saved cards): the cursors seen so far (the first page has none), so that
 * Previous goes back without an offset; a new filter starts again at the first page.
 */
import { useEffect, useState } from 'preact/hooks';
import type { DashboardMessages } from './locales';

interface Page {
  data: { id: string }[];
  has_more: boolean;
}

export function useCursorPages<Filter, List extends Page>(load: (filter: Filter, startingAfter: string | undefined) => Promise<List>, fail: (error: unknown) => void, initial: Filter) {
  const [filter, setFilter] = useState(initial);
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined]);
  const [list, setList] = useState<List>();
  const cursor = cursors[cursors.length - 1];

  useEffect(() => {
    void load(filter, cursor).then(setList, fail);
  }, [filter, cursor]);

  const last = list?.data[list.data.length - 1];
  return {
    list,
    /** A row changed in place (a detach): the page keeps its place. */
    setList,
    filterBy(next: Filter) {
      setCursors([undefined]);
      setFilter(next);
    },
    previous: cursors.length > 1 ? () => setCursors(cursors.slice(0, -1)) : undefined,
    next: list?.has_more && last ? () => setCursors([...cursors, last.id]) : undefined,
  };
}

export function Pager({ t, previous, next }: { t: DashboardMessages; previous?: () => void; next?: () => void }) {
  return (
    <div class="pager">
      {previous && (
        <button type="button" class="secondary" onClick={previous}>
          {t.payments.previous}
        </button>
      )}
      {next && (
        <button type="button" class="secondary" onClick={next}>
          {t.payments.next}
        </button>
      )}
    </div>
  );
}
