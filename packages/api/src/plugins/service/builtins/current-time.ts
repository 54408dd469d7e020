/** Thrown for a time zone that is not a known IANA name. */
export class TimeZoneError extends Error {
  override name = "TimeZoneError";
}

const IANA_NAME = /^(UTC|GMT|[A-Za-z]+(?:\/[A-Za-z0-9_+-]+){1,2})$/;

/** The canonical spelling of an IANA time zone name, or a {@link TimeZoneError}. */
export function checkTimeZone(name: string): string {
  const trimmed = name.trim();
  // Offsets such as "+08:00" are refused: they have no daylight-saving rules, and models guess them wrong.
  if (!IANA_NAME.test(trimmed)) throw new TimeZoneError(`"${name}" is not an IANA time zone name; use one such as Asia/Shanghai, Europe/Paris or UTC`);
  try {
    return new Intl.DateTimeFormat("en-US", { timeZone: trimmed }).resolvedOptions().timeZone;
  } catch {
    throw new TimeZoneError(`unknown time zone "${name}"; use an IANA name such as Asia/Shanghai, Europe/Paris or UTC`);
  }
}

/** The moment `at` as seen in a time zone. */
export function timeIn(at: Date, timeZone: string) {
  const zone = checkTimeZone(timeZone);
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat("en-US", {
      timeZone: zone,
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
      weekday: "long",
      hourCycle: "h23",
    })
      .formatToParts(at)
      .map((part) => [part.type, part.value]),
  ) as Record<string, string>;
  const wallClock = Date.UTC(Number(parts.year), Number(parts.month) - 1, Number(parts.day), Number(parts.hour), Number(parts.minute), Number(parts.second));
  const offsetMinutes = Math.round((wallClock - Math.floor(at.getTime() / 1000) * 1000) / 60_000);
  const sign = offsetMinutes < 0 ? "-" : "+";
  const utcOffset = `${sign}${String(Math.floor(Math.abs(offsetMinutes) / 60)).padStart(2, "0")}:${String(Math.abs(offsetMinutes) % 60).padStart(2, "0")}`;
  const date = `${parts.year}-${parts.month}-${parts.day}`;
  const time = `${parts.hour}:${parts.minute}:${parts.second}`;
  return {
    timezone: zone,
    iso: `${date}T${time}${utcOffset}`,
    date,
    time,
    weekday: parts.weekday ?? "",
    utcOffset,
    unixSeconds: Math.floor(at.getTime() / 1000),
  };
}
