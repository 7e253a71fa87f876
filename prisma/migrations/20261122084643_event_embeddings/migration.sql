-- Search vectors of core events (hand-edited: the vector column is guarded).
-- CreateTable
CREATE TABLE "EventEmbedding" (
    "eventId" TEXT NOT NULL,
    "provider" TEXT NOT NULL,
    "model" TEXT NOT NULL,
    "dimension" INTEGER NOT NULL,
    "contentHash" TEXT NOT NULL,
    "values" DOUBLE PRECISION[],
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "EventEmbedding_pkey" PRIMARY KEY ("eventId")
);

-- CreateIndex
CREATE INDEX "EventEmbedding_provider_model_dimension_idx" ON "EventEmbedding"("provider", "model", "dimension");

-- AddForeignKey
ALTER TABLE "EventEmbedding" ADD CONSTRAINT "EventEmbedding_eventId_fkey" FOREIGN KEY ("eventId") REFERENCES "CoreEvent"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- The pgvector copy of "values", only where the extension is installed (PGlite always;
-- a PostgreSQL server without pgvector keeps "values" alone and searches exactly in process).
DO $$
BEGIN
  IF to_regtype('vector') IS NOT NULL THEN
    EXECUTE 'ALTER TABLE "EventEmbedding" ADD COLUMN "embedding" vector';
  END IF;
END
$$;
