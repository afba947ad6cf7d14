/**
 * The real kube-apiserver, as the suites talk to it: `Oracle.start()` runs the Go program in
 * `conformance/cmd/oracle` (built by `npx projen conformance`), waits until it is ready, and gives
 * a small HTTPS client with a bearer token. The apiserver listens on 127.0.0.1 only.
 */
import { ChildProcess, spawn } from 'child_process';
import * as fs from 'fs';
import * as https from 'https';
import * as os from 'os';
import * as path from 'path';

export const ORACLE_BINARY = path.join(__dirname, '..', '..', '.bin', 'oracle');

/** What the apiserver answered to one request. */
export interface OracleResponse {
  readonly status: number;
  readonly body: any;
  /** The texts of the `Warning` headers (RFC 7234 `299 - "text"`), unquoted. */
  readonly warnings: string[];
  /** The `Audit-Id` header: the request's `auditID` in the audit log. */
  readonly auditId?: string;
}

/** Who a request is made as: the oracle's own user (in `system:masters`), or another by impersonation. */
export interface Impersonation {
  readonly username: string;
  readonly groups: readonly string[];
  readonly uid?: string;
  readonly extra?: { readonly [key: string]: readonly string[] };
}

/** The headers that make a request as `as` (the apiserver adds `system:authenticated` itself). */
function impersonationHeaders(as: Impersonation | undefined): { [header: string]: string | string[] } {
  if (!as) return {};
  return {
    'Impersonate-User': as.username,
    ...(as.groups.length > 0 ? { 'Impersonate-Group': [...as.groups] } : {}),
    ...(as.uid ? { 'Impersonate-Uid': as.uid } : {}),
    ...Object.fromEntries(Object.entries(as.extra ?? {}).map(([k, v]) => [`Impersonate-Extra-${encodeURIComponent(k)}`, [...v]])),
  };
}

interface ReadyInfo {
  readonly server: string;
  readonly ca: string;
  readonly token: string;
  readonly auditLog: string;
  /** The recording admission webhook's base URL (cmd/oracle/recorder.go), served with the apiserver's CA. */
  readonly recorder: string;
}

export interface OracleOptions {
  /** `--emulated-version` of the apiserver, e.g. `1.34`; default: the binary's own version. */
  readonly emulatedVersion?: string;
  /**
   * `--admission-control-config-file` of the apiserver: an AdmissionConfiguration, e.g. one whose
   * plugins load static manifests; default: none.
   */
  readonly admissionConfigFile?: string;
}

/** The oracle's exit code when its own setup failed before the apiserver ran (exitSetupFailed in cmd/oracle). */
const EXIT_SETUP_FAILED = 3;

/** The oracle stopped before it was ready: an apiserver that refused its flags or its admission configuration. */
export class OracleExitedError extends Error {
  constructor(public readonly code: number | null, public readonly output: string) {
    super(`the oracle exited with ${code} before it was ready:\n${output.slice(-4000)}`);
  }
}

export class Oracle {
  /**
   * Starts an oracle. A failure of the oracle's own setup (exit code 3, e.g. a port another process
   * took between its draw and its bind) is retried; an apiserver that refuses its configuration is
   * an answer, thrown as OracleExitedError.
   */
  public static async start(options: OracleOptions = {}): Promise<Oracle> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await Oracle.startOnce(options);
      } catch (e) {
        if (!(e instanceof OracleExitedError) || e.code !== EXIT_SETUP_FAILED || attempt === 3) throw e;
      }
    }
  }

  private static async startOnce(options: OracleOptions): Promise<Oracle> {
    if (!fs.existsSync(ORACLE_BINARY)) {
      throw new Error(`${ORACLE_BINARY} is missing: run 'npx projen conformance', which builds it`);
    }
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cdk8s-admission-oracle-'));
    const readyFile = path.join(dir, 'ready.json');
    const args = ['--dir', path.join(dir, 'work'), '--ready-file', readyFile];
    if (options.emulatedVersion) args.push('--emulated-version', options.emulatedVersion);
    if (options.admissionConfigFile) args.push('--admission-control-config-file', options.admissionConfigFile);
    const child = spawn(ORACLE_BINARY, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    const output = { text: '' };
    child.stdout!.on('data', (d) => { output.text += d; });
    child.stderr!.on('data', (d) => { output.text += d; });
    let gone = false;
    const exited = new Promise<never>((_, reject) => child.on('exit', (code) => {
      gone = true;
      fs.rmSync(dir, { recursive: true, force: true });
      reject(new OracleExitedError(code, output.text));
    }));
    const ready = (async () => {
      for (let i = 0; i < 3 * 60 * 10 && !gone; i++) {
        if (fs.existsSync(readyFile)) return JSON.parse(fs.readFileSync(readyFile, 'utf8')) as ReadyInfo;
        await new Promise((r) => setTimeout(r, 100));
      }
      throw new Error('the oracle was not ready within 3 minutes');
    })();
    const info = await Promise.race([ready, exited]);
    child.removeAllListeners('exit');
    return new Oracle(child, info, dir, options.emulatedVersion, output);
  }

  private readonly agent: https.Agent;

  private constructor(
    private readonly child: ChildProcess,
    private readonly info: ReadyInfo,
    private readonly dir: string,
    public readonly emulatedVersion: string | undefined,
    private readonly output: { readonly text: string },
  ) {
    this.agent = new https.Agent({ ca: fs.readFileSync(info.ca), keepAlive: true, maxSockets: 16 });
  }

  /** What the oracle and its apiserver have written to their standard output and error so far. */
  public get log(): string {
    return this.output.text;
  }

  /** The audit log (Metadata level, one JSON event a line), written before each response completes. */
  public get auditLog(): string {
    return this.info.auditLog;
  }

  /** The recorder's webhook URL, and the CA bundle (base64 PEM) a webhook configuration trusts it with. */
  public get recorderWebhook(): { url: string; caBundle: string } {
    return { url: `${this.info.recorder}/record`, caBundle: fs.readFileSync(this.info.ca).toString('base64') };
  }

  /** What the recorder saw last for `<kind>/<namespace>/<name>`: the request's object and old object. */
  public async recorded(key: string): Promise<{ object: any; oldObject: any } | undefined> {
    const res = await this.send('GET', `${this.info.recorder}/recorded?key=${encodeURIComponent(key)}`, undefined, undefined, false);
    return res.status === 200 ? res.body : undefined;
  }

  public request(method: string, urlPath: string, body?: unknown, as?: Impersonation): Promise<OracleResponse> {
    return this.send(method, this.info.server + urlPath, body, as, true);
  }

  private send(method: string, url: string, body: unknown, as: Impersonation | undefined, authorized: boolean): Promise<OracleResponse> {
    const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    return new Promise((resolve, reject) => {
      const req = https.request(url, {
        method,
        agent: this.agent,
        headers: {
          ...(authorized ? { Authorization: `Bearer ${this.info.token}` } : {}),
          Accept: 'application/json',
          ...(payload ? { 'Content-Type': 'application/json', 'Content-Length': payload.length } : {}),
          ...impersonationHeaders(as),
        },
      }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let parsed: unknown = text;
          try {
            parsed = JSON.parse(text);
          } catch {
            // not JSON: keep the text
          }
          const auditId = res.headers['audit-id'];
          resolve({ status: res.statusCode ?? 0, body: parsed, warnings: warningTexts(res.headers.warning), auditId: typeof auditId === 'string' ? auditId : undefined });
        });
        res.on('error', reject);
      });
      req.on('error', reject);
      if (payload) req.write(payload);
      req.end();
    });
  }

  public async stop(): Promise<void> {
    this.agent.destroy();
    const exited = new Promise((r) => this.child.once('exit', r));
    this.child.stdin!.end();
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}

/** `299 - "text"` headers, possibly several in one comma-joined value. */
function warningTexts(header: string | string[] | undefined): string[] {
  if (header === undefined) return [];
  const values = Array.isArray(header) ? header : [header];
  const out: string[] = [];
  for (const value of values) {
    const re = /\d{3} \S+ "((?:[^"\\]|\\.)*)"/g;
    let m: RegExpExecArray | null;
    while ((m = re.exec(value)) !== null) out.push(m[1].replace(/\\(.)/g, '$1'));
  }
  return out;
}
