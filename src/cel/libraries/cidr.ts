import { CelEnvironment } from '../engine';
import { CelLibrary, registerOpaqueType } from '../library';
import { IP_TYPE, parseIp } from './ip';
import { CidrPrefix, IpAddress } from './net-address';
import { celError } from './values';

/** The Kubernetes CIDR library (library/cidr.go): `cidr(s)`, `isCIDR(s)`, `net.CIDR` methods. */
export const CIDR_TYPE = 'net.CIDR';

function parseCidr(s: string): CidrPrefix {
  const c = CidrPrefix.parse(s);
  if (!c) throw celError(`network address parse error during conversion from string: network address parse error during conversion from string: netip.ParsePrefix(${JSON.stringify(s)}): bad prefix`);
  return c;
}

export const CIDR: CelLibrary = {
  name: 'cidr',
  install(env: CelEnvironment) {
    const C = CIDR_TYPE;
    registerOpaqueType(env, C, CidrPrefix);
    env.registerFunction(`cidr(string): ${C}`, parseCidr);
    env.registerFunction('isCIDR(string): bool', (s: string) => CidrPrefix.parse(s) !== undefined);
    env.registerFunction(`${C}.containsIP(string): bool`, (c: CidrPrefix, s: string) => c.containsIp(parseIp(s)));
    env.registerFunction(`${C}.containsIP(${IP_TYPE}): bool`, (c: CidrPrefix, ip: IpAddress) => c.containsIp(ip));
    env.registerFunction(`${C}.containsCIDR(string): bool`, (c: CidrPrefix, s: string) => c.containsCidr(parseCidr(s)));
    env.registerFunction(`${C}.containsCIDR(${C}): bool`, (c: CidrPrefix, o: CidrPrefix) => c.containsCidr(o));
    env.registerFunction(`${C}.ip(): ${IP_TYPE}`, (c: CidrPrefix) => c.ip);
    env.registerFunction(`${C}.prefixLength(): int`, (c: CidrPrefix) => BigInt(c.prefixLength));
    env.registerFunction(`${C}.masked(): ${C}`, (c: CidrPrefix) => c.masked());
    env.registerFunction(`string(${C}): string`, (c: CidrPrefix) => c.toString());
    env.registerOperator(`${C} == ${C}`, (a: CidrPrefix, b: CidrPrefix) => a.equals(b));
  },
};
