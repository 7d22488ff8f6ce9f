import { makeTestDatabaseTemplate } from "../../support/database-template";

export default async function setup() {
  return makeTestDatabaseTemplate(".vitest-tmp");
}
