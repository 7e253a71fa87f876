-- CreateTable
CREATE TABLE "FeedItem" (
    "id" BIGSERIAL NOT NULL,
    "source" TEXT NOT NULL,
    "externalId" TEXT NOT NULL,
    "kind" TEXT NOT NULL DEFAULT 'news',
    "title" TEXT NOT NULL,
    "summary" TEXT NOT NULL DEFAULT '',
    "url" TEXT,
    "author" TEXT,
    "category" TEXT,
    "coreEventId" TEXT,
    "mappingMethod" TEXT,
    "tags" TEXT[],
    "publishedAt" TIMESTAMP(3) NOT NULL,
    "ingestedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "FeedItem_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "FeedIngestBatch" (
    "id" BIGSERIAL NOT NULL,
    "received" INTEGER NOT NULL,
    "inserted" INTEGER NOT NULL,
    "duplicates" INTEGER NOT NULL,
    "mapped" INTEGER NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "FeedIngestBatch_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "FeedItem_category_id_idx" ON "FeedItem"("category", "id");

-- CreateIndex
CREATE INDEX "FeedItem_source_id_idx" ON "FeedItem"("source", "id");

-- CreateIndex
CREATE INDEX "FeedItem_coreEventId_id_idx" ON "FeedItem"("coreEventId", "id");

-- CreateIndex
CREATE UNIQUE INDEX "FeedItem_source_externalId_key" ON "FeedItem"("source", "externalId");
