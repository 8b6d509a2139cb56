-- Decision 0135 (issue 10 §6): a campus is private unless PUBLIC_CAMPUSES opens it; the app writes every
-- campus's privacy from that setting at start, and a row written any other way stays closed.
ALTER TABLE "campuses" ALTER COLUMN "privacy" SET DEFAULT 'private';