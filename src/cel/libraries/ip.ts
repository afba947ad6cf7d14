import { CelEnvironment } from '../engine';
import { CelLibrary, registerNamespace, registerOpaqueType } from '../library';
import { IpAddress } from './net-address';
import { celError } from './values';

/** The Kubernetes IP library (library/ip.go): `ip(s)`, `isIP(s)`, `ip.isCanonical(s)`, `net.IP` methods. */
export const IP_TYPE = 'net.IP';

/**
 * ip.go parseIPAddr: netip.ParseAddr, then no zone and no IPv4-mapped IPv6 address, each with its
 * text. netip's own reasons (`unexpected character`, `IPv4 field has value >255`, ...) are not
 * reproduced: every address it refuses reads "unable to parse IP".
 */
export function parseIp(s: string): IpAddress {
  const ip = IpAddress.parse(s);
  if (ip) return ip;
  const zone = s.indexOf('%');
  if (zone > 0 && IpAddress.parse(s.slice(0, zone))) throw celError(`IP address ${JSON.stringify(s)} with zone value is not allowed`);
  if (/^::ffff:\d{1,3}(\.\d{1,3}){3}$/i.test(s)) throw celError(`IPv4-mapped IPv6 address ${JSON.stringify(s)} is not allowed`);
  throw celError(`IP Address ${JSON.stringify(s)} parse error during conversion from string: ParseAddr(${JSON.stringify(s)}): unable to parse IP`);
}

export const IP: CelLibrary = {
  name: 'ip',
  install(env: CelEnvironment) {
    registerOpaqueType(env, IP_TYPE, IpAddress);
    env.registerFunction(`ip(string): ${IP_TYPE}`, parseIp);
    env.registerFunction('isIP(string): bool', (s: string) => IpAddress.parse(s) !== undefined);
    const ns = registerNamespace(env, 'ip');
    env.registerFunction(`${ns}.isCanonical(string): bool`, (_: unknown, s: string) => parseIp(s).toString() === s);
    env.registerFunction(`${IP_TYPE}.family(): int`, (ip: IpAddress) => BigInt(ip.family));
    for (const m of ['isUnspecified', 'isLoopback', 'isLinkLocalMulticast', 'isLinkLocalUnicast', 'isGlobalUnicast'] as const) {
      env.registerFunction(`${IP_TYPE}.${m}(): bool`, (ip: IpAddress) => ip[m]());
    }
    env.registerFunction(`string(${IP_TYPE}): string`, (ip: IpAddress) => ip.toString());
    env.registerOperator(`${IP_TYPE} == ${IP_TYPE}`, (a: IpAddress, b: IpAddress) => a.equals(b));
  },
};
