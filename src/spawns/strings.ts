/** The English strings of the month of rare spawns, in one place for the i18n catalogue. */
export const SPAWN_STRINGS = {
  heading: "Rare spawns, last 30 days",
  intro: "Every rare and super-rare find of your refreshes of the last 30 days, per site: a mark per spot with the number of finds on it and their newest dates. Pink: super rare; purple: rare.",
  none: "No rare finds in the last 30 days.",
  subtitle: (finds: number, spots: number) => `Rare finds, last 30 days: ${finds} on ${spots} ${spots === 1 ? "spot" : "spots"}`,
} as const;
