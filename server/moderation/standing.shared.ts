/**
 * Decision 0547: the student's standing page, which every suspension refusal links to. A module of
 * its own: the composers' links (app/components/posts/composer-targets.ts) are on the shell's first
 * load, which must not carry the moderation rules' words with it.
 */
export const STANDING_PATH = "/settings/account/standing";
