// What prints a list page by page, whatever the format (JSON array, CSV, a human table): the
// shape output.ts and csv-output.ts both return, kept apart so neither imports the other's module.

export interface ListPrinter<T> {
  /** Writes one page of items (streamed in --json and --csv mode). */
  page(items: readonly T[]): void;
  /** Ends the list. */
  end(): void;
}
