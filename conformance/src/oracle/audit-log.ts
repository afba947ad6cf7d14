/**
 * The oracle's audit log (JSON lines, Metadata level): the annotations admission recorded for a
 * request, found by the request's `Audit-Id`.
 */
import * as fs from 'fs';

export class AuditLog {
  private offset = 0;
  private readonly annotations = new Map<string, { [key: string]: string }>();

  public constructor(private readonly file: string) {}

  /** The annotations of the request's ResponseComplete event (undefined: not written yet). */
  public annotationsOf(auditId: string): { [key: string]: string } | undefined {
    if (!this.annotations.has(auditId)) this.readNew();
    return this.annotations.get(auditId);
  }

  /** Reads the lines appended since the last read; a partial last line is read next time. */
  private readNew(): void {
    const size = fs.statSync(this.file).size;
    if (size <= this.offset) return;
    const fd = fs.openSync(this.file, 'r');
    try {
      const buffer = Buffer.alloc(size - this.offset);
      fs.readSync(fd, buffer, 0, buffer.length, this.offset);
      const text = buffer.toString('utf8');
      const end = text.lastIndexOf('\n');
      if (end < 0) return;
      this.offset += Buffer.byteLength(text.slice(0, end + 1));
      for (const line of text.slice(0, end).split('\n')) {
        if (line.trim() === '') continue;
        const event = JSON.parse(line);
        if (event.stage === 'ResponseComplete') this.annotations.set(event.auditID, event.annotations ?? {});
      }
    } finally {
      fs.closeSync(fd);
    }
  }
}
