/** The English strings of the watch section, in one place for the i18n catalogue. */
export const WATCH_STRINGS = {
  heading: "Watched resources",
  intro: "Tick what you want to hear about. Where the server's owner set your pushes to \u201cwatched\u201d, a refresh is pushed only when one of these appears: its name, site and count first, then that site's map.",
  everyone: "Watched for every player by the server's owner:",
  others: "Also watched (set by the server's owner):",
  save: "Save watch list",
  superRare: "Super rare",
  rare: "Rare",
  birthday: "Birthday",
  badForm: "a watch form names resources of the list only",
} as const;
