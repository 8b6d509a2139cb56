/**
 * Decision 0580: with DATABASE_URL the database is a PostgreSQL server, which PostgreSQL's own
 * tools back up better than any copy the app could make; the commands say so and do nothing.
 */
export function postgresBackupNote(command: "backup" | "restore"): string {
  const database =
    command === "backup"
      ? '  pg_dump --format=custom --file=campus.dump "$DATABASE_URL"'
      : '  pg_restore --no-owner --dbname="$DATABASE_URL" campus.dump   (into an empty database)';
  return [
    `DATABASE_URL is set: npm run ${command} works on the embedded database only, and did nothing.`,
    `The database is a PostgreSQL server: ${command === "backup" ? "back it up" : "restore it"} with PostgreSQL's own tools:`,
    database,
    "Media: with S3_BUCKET the uploads are in that bucket; back it up with the bucket's own tools",
    "(versioning, or `aws s3 sync s3://BUCKET ./media-copy`). Without S3_BUCKET they are in DATA_DIR/media:",
    command === "backup" ? '  tar czf media.tgz -C "$DATA_DIR" media' : '  tar xzf media.tgz -C "$DATA_DIR"',
    "Keep APP_SECRET (and VAPID keys, or DATA_DIR/app-secret and vapid-keys.json when generated) with it:",
    "without them sessions and push subscriptions do not survive.",
  ].join("\n");
}
