import type { ReactNode } from "react";
import { Card, CardDescription, CardHeader, CardTitle } from "../../components/ui/card";

/** One column of an analytics table: its header text and how to show it in a row. */
export interface TableColumn<Row> {
  /** Also the column's key: unique within a table. */
  header: string;
  cell: (row: Row) => ReactNode;
  /** Numbers line up on the right. */
  align?: "right";
  /** On a phone the column is left out; the page shows its value some other way there. */
  hiddenOnPhone?: boolean;
  /** Extra classes for this column's body cells only, such as the row header's weight. */
  cellClassName?: string;
}

export interface DataTableProps<Row> {
  /** The scrolling region's accessible name. */
  label: string;
  /** Read by screen readers only. */
  caption: ReactNode;
  /** The first column names the row: its cells are row headers. */
  columns: readonly TableColumn<Row>[];
  rows: readonly Row[];
  rowKey: (row: Row) => string;
  rowTestId?: string;
  /** For many columns: scrolls sideways sooner rather than squeezing them. */
  wide?: boolean;
}

// Narrow cells on a phone, so the tables fit 375 px without scrolling.
const CELL = "px-2 py-2.5 first:pl-4 last:pr-4 sm:px-4 sm:first:pl-6 sm:last:pr-6";
const TH = `${CELL} font-medium text-muted`;
const TD = `${CELL} text-ink tabular-nums`;

const classes = (...names: Array<string | false | undefined>) => names.filter(Boolean).join(" ");

/** The classes that come from a column's settings, shared by its header and its cells. */
const columnClasses = <Row,>(column: TableColumn<Row>) =>
  classes(
    column.hiddenOnPhone && "hidden",
    column.align === "right" && "text-right",
    column.hiddenOnPhone && "sm:table-cell",
  );

const headerClass = <Row,>(column: TableColumn<Row>) => classes(TH, columnClasses(column));
const cellClass = <Row,>(column: TableColumn<Row>) =>
  classes(TD, column.cellClassName, columnClasses(column));

/**
 * A table that scrolls sideways inside its card on a narrow screen instead of widening the page. The
 * scrolling box is a named, focusable region, so a keyboard can scroll it too.
 */
export function DataTable<Row>({
  label,
  caption,
  columns,
  rows,
  rowKey,
  rowTestId,
  wide = false,
}: DataTableProps<Row>) {
  const [nameColumn, ...valueColumns] = columns;
  return (
    <section
      aria-label={label}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: axe's scrollable-region-focusable: a box that scrolls must be reachable by keyboard.
      tabIndex={0}
      className="overflow-x-auto border-t border-line outline-none focus-visible:ring-2 focus-visible:ring-brand-500 focus-visible:ring-inset"
    >
      <table className={`w-full text-left text-sm ${wide ? "min-w-[32rem]" : "min-w-[19rem]"}`}>
        <caption className="sr-only">{caption}</caption>
        <thead>
          <tr>
            {columns.map((column) => (
              <th key={column.header} scope="col" className={headerClass(column)}>
                {column.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-line">
          {rows.map((row) => (
            <tr key={rowKey(row)} data-testid={rowTestId}>
              {nameColumn && (
                <th scope="row" className={cellClass(nameColumn)}>
                  {nameColumn.cell(row)}
                </th>
              )}
              {valueColumns.map((column) => (
                <td key={column.header} className={cellClass(column)}>
                  {column.cell(row)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

/** A titled card holding a table, or a line saying there is nothing to show yet. */
export function TableCard<Row>({
  title,
  description,
  emptyMessage,
  ...table
}: Omit<DataTableProps<Row>, "label"> & { title: string; description: ReactNode; emptyMessage: string }) {
  return (
    <Card className="min-w-0">
      <CardHeader className="pb-4">
        <CardTitle>{title}</CardTitle>
        <CardDescription>{description}</CardDescription>
      </CardHeader>
      {table.rows.length === 0 ? (
        <p className="border-t border-line px-6 py-8 text-center text-sm text-muted">{emptyMessage}</p>
      ) : (
        <DataTable label={title} {...table} />
      )}
    </Card>
  );
}
