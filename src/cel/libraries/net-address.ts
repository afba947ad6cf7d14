/* eslint-disable no-bitwise */ // address arithmetic is bit arithmetic
import { isIPv4, isIPv6 } from 'net';

/**
 * IP addresses as the Kubernetes IP and CIDR libraries see them (Go's netip, strict): no zones,
 * no IPv4-mapped IPv6 addresses, no leading zeros in IPv4 octets.
 */
export class IpAddress {
  public static parse(text: string): IpAddress | undefined {
    if (isIPv4(text)) {
      if (text.split('.').some((o) => o.length > 1 && o.startsWith('0'))) return undefined;
      return new IpAddress(Uint8Array.from(text.split('.').map(Number)));
    }
    if (!isIPv6(text) || text.includes('%')) return undefined;
    const bytes = ipv6Bytes(text);
    if (!bytes) return undefined;
    if (bytes.slice(0, 10).every((b) => b === 0) && bytes[10] === 0xff && bytes[11] === 0xff) return undefined;
    return new IpAddress(bytes);
  }

  public constructor(public readonly bytes: Uint8Array) {}

  public get family(): number {
    return this.bytes.length === 4 ? 4 : 6;
  }

  public equals(other: unknown): boolean {
    return other instanceof IpAddress && other.bytes.length === this.bytes.length && other.bytes.every((b, i) => b === this.bytes[i]);
  }

  public isUnspecified(): boolean {
    return this.bytes.every((b) => b === 0);
  }

  public isLoopback(): boolean {
    return this.family === 4 ? this.bytes[0] === 127 : this.bytes.slice(0, 15).every((b) => b === 0) && this.bytes[15] === 1;
  }

  public isLinkLocalMulticast(): boolean {
    return this.family === 4
      ? this.bytes[0] === 224 && this.bytes[1] === 0 && this.bytes[2] === 0
      : this.bytes[0] === 0xff && (this.bytes[1] & 0x0f) === 0x02;
  }

  public isLinkLocalUnicast(): boolean {
    return this.family === 4 ? this.bytes[0] === 169 && this.bytes[1] === 254 : this.bytes[0] === 0xfe && (this.bytes[1] & 0xc0) === 0x80;
  }

  public isGlobalUnicast(): boolean {
    if (this.isUnspecified() || this.isLoopback() || this.isLinkLocalUnicast() || this.isLinkLocalMulticast()) return false;
    if (this.family === 4) return !(this.bytes[0] >= 224) && !this.bytes.every((b) => b === 255);
    return this.bytes[0] !== 0xff;
  }

  public toString(): string {
    if (this.family === 4) return [...this.bytes].join('.');
    const groups: number[] = [];
    for (let i = 0; i < 16; i += 2) groups.push((this.bytes[i] << 8) | this.bytes[i + 1]);
    // The longest run of two or more zero groups becomes "::" (RFC 5952).
    let bestStart = -1;
    let bestLen = 1;
    for (let i = 0; i < 8;) {
      if (groups[i] !== 0) {
        i++;
        continue;
      }
      let j = i;
      while (j < 8 && groups[j] === 0) j++;
      if (j - i > bestLen) [bestStart, bestLen] = [i, j - i];
      i = j;
    }
    const hex = groups.map((g) => g.toString(16));
    if (bestStart === -1) return hex.join(':');
    return `${hex.slice(0, bestStart).join(':')}::${hex.slice(bestStart + bestLen).join(':')}`;
  }
}

function ipv6Bytes(text: string): Uint8Array | undefined {
  let head = text;
  let tailV4: number[] = [];
  const lastColon = text.lastIndexOf(':');
  if (text.slice(lastColon + 1).includes('.')) {
    tailV4 = text.slice(lastColon + 1).split('.').map(Number);
    head = `${text.slice(0, lastColon + 1)}0:0`;
  }
  const [left, right] = head.includes('::') ? head.split('::') : [head, undefined];
  const l = left ? left.split(':') : [];
  const r = right === undefined ? [] : (right ? right.split(':') : []);
  const missing = 8 - l.length - r.length;
  if (missing < 0 || (right === undefined && missing !== 0)) return undefined;
  const groups = [...l, ...Array(missing).fill('0'), ...r].map((g) => parseInt(g, 16));
  const bytes = new Uint8Array(16);
  groups.forEach((g, i) => {
    bytes[2 * i] = g >> 8;
    bytes[2 * i + 1] = g & 0xff;
  });
  if (tailV4.length === 4) bytes.set(tailV4, 12);
  return bytes;
}

export class CidrPrefix {
  public static parse(text: string): CidrPrefix | undefined {
    const slash = text.indexOf('/');
    if (slash === -1) return undefined;
    const ip = IpAddress.parse(text.slice(0, slash));
    const lengthText = text.slice(slash + 1);
    if (!ip || !/^(0|[1-9]\d*)$/.test(lengthText)) return undefined;
    const length = Number(lengthText);
    if (length > ip.bytes.length * 8) return undefined;
    return new CidrPrefix(ip, length);
  }

  public constructor(public readonly ip: IpAddress, public readonly prefixLength: number) {}

  public masked(): CidrPrefix {
    const bytes = Uint8Array.from(this.ip.bytes);
    for (let bit = this.prefixLength; bit < bytes.length * 8; bit++) bytes[bit >> 3] &= ~(0x80 >> (bit & 7));
    return new CidrPrefix(new IpAddress(bytes), this.prefixLength);
  }

  public containsIp(ip: IpAddress): boolean {
    if (ip.family !== this.ip.family) return false;
    const a = this.masked().ip.bytes;
    const b = new CidrPrefix(ip, this.prefixLength).masked().ip.bytes;
    return a.every((x, i) => x === b[i]);
  }

  public containsCidr(other: CidrPrefix): boolean {
    return other.prefixLength >= this.prefixLength && this.containsIp(other.ip);
  }

  public equals(other: unknown): boolean {
    return other instanceof CidrPrefix && other.prefixLength === this.prefixLength && other.ip.equals(this.ip);
  }

  public toString(): string {
    return `${this.ip}/${this.prefixLength}`;
  }
}
