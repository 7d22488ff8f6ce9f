/**
 * A file the importer refuses as a whole (not text, not the export it claims to be, broken CSV or JSON,
 * too large). Its message is written for the creator and names the file; the page shows it as is.
 * A single bad row is never this: it is a RowProblem and the rest of the file is still read.
 */
export class ImportFileError extends Error {
  override readonly name = "ImportFileError";

  constructor(
    readonly file: string,
    message: string,
  ) {
    super(message);
  }
}
