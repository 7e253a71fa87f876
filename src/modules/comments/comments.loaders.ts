import { defineLoaders, type LoadersOf } from '../../kernel';
import DataLoader from 'dataloader';
import { CommentsService } from './comments.service';

/** Per-request loaders of the comments domain (for the request's viewer). */
export const commentsLoaders = defineLoaders('comments', (services) => {
  const comments = services.get(CommentsService);
  const byViewer = new Map<string, DataLoader<string, boolean>>();
  return {
    /** Whether `viewerId` likes each comment, batched per viewer. */
    likedBy(viewerId: string): DataLoader<string, boolean> {
      let l = byViewer.get(viewerId);
      if (!l) {
        l = new DataLoader<string, boolean>((ids) => comments.likedBy(viewerId, ids));
        byViewer.set(viewerId, l);
      }
      return l;
    },
  };
});

export type CommentsLoaders = LoadersOf<typeof commentsLoaders>;
