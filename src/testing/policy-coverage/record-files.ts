// Where a jest run's coverage records meet: the setup file of each test file writes its record
// into the directory the reporter names (an environment variable the workers inherit), and the
// reporter merges them when the run completes.
import * as fs from 'fs';
import * as path from 'path';
import { CoverageRecord, mergeRecords } from './coverage-record';
import { checkedRecord } from './record-shape';

export const RECORDS_ENV = 'CDK8S_ADMISSION_COVERAGE_RECORDS';

/** The records directory when no reporter named one: under the working directory, where the reporter looks by default. */
export function recordsDirectory(): string {
  return process.env[RECORDS_ENV] ?? path.join(process.cwd(), 'coverage', 'admission', '.records');
}

let written = 0;

/** Writes one test file's record, under a name no other worker's can have. */
export function writeRecord(directory: string, record: CoverageRecord): void {
  fs.mkdirSync(directory, { recursive: true });
  fs.writeFileSync(path.join(directory, `${process.pid}-${Date.now()}-${written++}.json`), JSON.stringify(record));
}

/** Every record in the directory, merged (an empty record when there are none). */
export function readRecords(directory: string): CoverageRecord {
  const files = fs.existsSync(directory) ? fs.readdirSync(directory).filter((f) => f.endsWith('.json')).sort() : [];
  return mergeRecords(files.map((f) => {
    const file = path.join(directory, f);
    return checkedRecord(JSON.parse(fs.readFileSync(file, 'utf8')), file);
  }));
}
