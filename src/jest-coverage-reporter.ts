// The jest reporter of policy coverage: merges the records of every test file (written by
// src/jest-coverage.ts in each worker), prints the table, writes coverage.json and index.html,
// and fails the run when a threshold is not met, as jest's coverageThreshold does.
//
//   reporters: ['default', ['cdk8s-admission/lib/jest-coverage-reporter', {
//     thresholds: { global: { validations: 100, branches: 80 }, policies: { 'replica-limit': { bindings: 100 } } },
//   }]],
import * as fs from 'fs';
import * as path from 'path';
import { checkStructKeys, COVERAGE_THRESHOLDS } from './private/struct-keys';
import { PolicyCoverage } from './testing/policy-coverage/policy-coverage';
import type { CoverageThresholds } from './testing/policy-coverage/policy-coverage';
import { readRecords, RECORDS_ENV } from './testing/policy-coverage/record-files';
import { struct } from './validation/struct-shape';

/** The reporter's options, in jest's `reporters` entry. */
export interface AdmissionCoverageReporterOptions {
  /** Where coverage.json and index.html go, relative to jest's rootDir (default `coverage/admission`). */
  readonly outputDirectory?: string;
  /** Minimum percentages, global and per policy: the run fails below them. */
  readonly thresholds?: CoverageThresholds;
  /** Whether to print the table (default true). */
  readonly printTable?: boolean;
}

const OPTIONS = struct('AdmissionCoverageReporterOptions', ['outputDirectory:s', 'printTable:b'], { thresholds: COVERAGE_THRESHOLDS });

export default class AdmissionCoverageReporter {
  private readonly directory: string;
  private readonly records: string;
  private error?: Error;

  public constructor(globalConfig: { readonly rootDir: string }, private readonly options: AdmissionCoverageReporterOptions = {}) {
    checkStructKeys('cdk8s-admission/lib/jest-coverage-reporter: options', options, OPTIONS);
    this.directory = path.resolve(globalConfig.rootDir, options.outputDirectory ?? path.join('coverage', 'admission'));
    this.records = path.join(this.directory, '.records');
    // Workers start after the reporters, and inherit this.
    process.env[RECORDS_ENV] = this.records;
  }

  public onRunStart(): void {
    fs.rmSync(this.records, { recursive: true, force: true });
  }

  public onRunComplete(): void {
    try {
      const coverage = PolicyCoverage._fromRecord(readRecords(this.records));
      fs.mkdirSync(this.directory, { recursive: true });
      fs.writeFileSync(path.join(this.directory, 'coverage.json'), JSON.stringify(coverage.toJson(), null, 2) + '\n');
      fs.writeFileSync(path.join(this.directory, 'index.html'), coverage.toHtml());
      fs.rmSync(this.records, { recursive: true, force: true });
      if (this.options.printTable !== false) {
        process.stdout.write(`\nAdmission policy coverage (${path.relative(process.cwd(), path.join(this.directory, 'index.html'))}):\n${coverage.toText()}`);
      }
      const failures = this.options.thresholds ? coverage.thresholdFailures(this.options.thresholds) : [];
      if (failures.length > 0) {
        const message = `Admission policy coverage thresholds not met:\n${failures.map((f) => `  ${f}`).join('\n')}`;
        process.stderr.write(`${message}\n`);
        this.error = new Error(message);
      }
    } catch (e) {
      process.stderr.write(`cdk8s-admission/lib/jest-coverage-reporter: ${(e as Error).message}\n`);
      this.error = e as Error;
    }
  }

  /** Jest fails the run when a reporter has an error. */
  public getLastError(): Error | undefined {
    return this.error;
  }
}
