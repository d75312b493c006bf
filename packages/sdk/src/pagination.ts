/**
 * A list call: awaited, its first page (`{data, hasMore}`); iterated with
 * `for await`, every item of every page, each next page asked with
 * `startingAfter` = the last id of the page before, while `hasMore`.
 */
export interface Page<T> {
  data: T[];
  hasMore: boolean;
}

export class PagedList<T extends { id: string }> implements PromiseLike<Page<T>>, AsyncIterable<T> {
  private first: Promise<Page<T>> | undefined;

  constructor(
    /** Fetches the page after `startingAfter` (undefined: the query's own first page). */
    private readonly fetchPage: (startingAfter: string | undefined) => Promise<Page<T>>,
  ) {}

  then<R1 = Page<T>, R2 = never>(
    onfulfilled?: ((page: Page<T>) => R1 | PromiseLike<R1>) | null,
    onrejected?: ((reason: unknown) => R2 | PromiseLike<R2>) | null,
  ): Promise<R1 | R2> {
    return this.firstPage().then(onfulfilled, onrejected);
  }

  /** Every page in turn, starting with the first. */
  async *pages(): AsyncGenerator<Page<T>, void, undefined> {
    let page = await this.firstPage();
    for (;;) {
      yield page;
      const last = page.data.at(-1);
      if (!page.hasMore || last === undefined) return;
      page = await this.fetchPage(last.id);
    }
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<T, void, undefined> {
    for await (const page of this.pages()) yield* page.data;
  }

  /** The first page is asked once, however often the list is awaited or iterated. */
  private firstPage(): Promise<Page<T>> {
    this.first ??= this.fetchPage(undefined);
    return this.first;
  }
}
