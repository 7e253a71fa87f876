-- Hand-written: an announcement's trade ids (about 45 KB for a 1,000-fill delivery) are stored
-- out of line without compression. They are hex digests that compress poorly, and compressing
-- them cost about 1 ms of each delivery's insert. Storage settings are not part of the Prisma
-- datamodel: the drift check (db:migrate:check) neither sees nor resets them.
ALTER TABLE "TradeAnnouncement" ALTER COLUMN "tradeIds" SET STORAGE EXTERNAL;
