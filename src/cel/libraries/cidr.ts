import { CelEnvironment } from '../engine';
import { CelLibrary, registerOpaqueType } from '../library';
import { IP_TYPE } from './ip';
import { CidrPrefix, IpAddress } from './net-address';
import { celError } from './values';

/** The Kubernetes CIDR library (library/cidr.go): `cidr(s)`, `isCIDR(s)`, `net.CIDR` methods. */
export const CIDR_TYPE = 'net.CIDR';

/** cidr.go parseCIDR's text around netip.ParsePrefix's reason (its first, `no '/'`, reproduced). */
function parseCidr(s: string): CidrPrefix {
  const c = CidrPrefix.parse(s);
  if (c) return c;
  const reason = s.includes('/') ? 'bad prefix' : "no '/'";
  const prefix = 'network address parse error during conversion from string: ';
  throw celError(`${prefix}${prefix}netip.ParsePrefix(${JSON.stringify(s)}): ${reason}`);
}

export const CIDR: CelLibrary = {
  name: 'cidr',
  install(env: CelEnvironment) {
    const C = CIDR_TYPE;
    registerOpaqueType(env, C, CidrPrefix);
    env.registerFunction(`cidr(string): ${C}`, parseCidr);
    env.registerFunction('isCIDR(string): bool', (s: string) => CidrPrefix.parse(s) !== undefined);
    // cidr.go containsIP: a string that is no address is an argument of no overload.
    env.registerFunction(`${C}.containsIP(string): bool`, (c: CidrPrefix, s: string) => {
      const ip = IpAddress.parse(s);
      if (!ip) throw celError('no such overload');
      return c.containsIp(ip);
    });
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
