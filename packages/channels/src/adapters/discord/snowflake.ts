/** Discord's epoch (2015-01-01T00:00:00Z) in milliseconds. */
const DISCORD_EPOCH = 1_420_070_400_000n;

/** When a Discord id (snowflake) was made, in milliseconds since the Unix epoch; undefined when it is not one. */
export function snowflakeTime(id: string): number | undefined {
  if (!/^\d{1,20}$/.test(id)) return undefined;
  return Number((BigInt(id) >> 22n) + DISCORD_EPOCH);
}

/** A snowflake made at `timeMs` with the given sequence bits. */
export function snowflakeAt(timeMs: number, sequence = 0): string {
  return (((BigInt(Math.floor(timeMs)) - DISCORD_EPOCH) << 22n) | BigInt(sequence & 0x3fffff)).toString();
}
