/** The current time. Services read it from here so tests can fix it. */
export type Clock = () => Date;

/** The machine's clock. */
export const systemClock: Clock = () => new Date();
