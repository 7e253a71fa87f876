import {
  getNamedType,
  getOperationAST,
  isObjectType,
  Kind,
  OperationTypeNode,
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLObjectType,
  type GraphQLSchema,
  type SelectionSetNode,
} from 'graphql';
import { Extensions } from 'type-graphql';

const PUBLIC_READ = 'publicRead';

interface PublicReadExtension {
  invalidatedBy?: string;
}

/**
 * Declares a query, or a field resolver, a public read: its answer is the same
 * for every caller (it reads no credential, consumes no rate limit, writes
 * nothing) and changes only when `invalidatedBy` is published, or never when
 * it is a pure function of its parent (`@PublicRead()`). An operation made only
 * of public reads and plain fields is answered from the executor's cache.
 */
export function PublicRead(invalidatedBy?: string): MethodDecorator & PropertyDecorator {
  return Extensions({ [PUBLIC_READ]: { invalidatedBy } satisfies PublicReadExtension });
}

/** What makes an operation's cached answer stale. */
export interface PublicReadPlan {
  readonly topics: readonly string[];
}

/**
 * Decides, once per document and operation, whether an operation is a public
 * read: a query whose every selected field is either declared with
 * {@link PublicRead} or a plain property of its parent (a field with no resolver
 * of its own, whose value is part of the parent's). Anything else (a mutation, a
 * viewer's field, a live book or chart) is executed every time.
 */
export class PublicReads {
  private readonly plans = new WeakMap<DocumentNode, Map<string, PublicReadPlan | null>>();

  /**
   * @param resolvedFields `Type.field` of every field with a resolver of its own
   *   (the others are plain properties).
   */
  constructor(
    private readonly schema: GraphQLSchema,
    private readonly resolvedFields: ReadonlySet<string>,
  ) {}

  /** Every topic a declared public read is invalidated by. */
  topics(): string[] {
    const topics = new Set<string>();
    for (const type of Object.values(this.schema.getTypeMap())) {
      if (!isObjectType(type) || type.name.startsWith('__')) continue;
      for (const field of Object.values(type.getFields())) {
        const topic = publicReadOf(field.extensions)?.invalidatedBy;
        if (topic) topics.add(topic);
      }
    }
    return [...topics];
  }

  plan(document: DocumentNode, operationName: string | undefined): PublicReadPlan | null {
    let byName = this.plans.get(document);
    if (!byName) {
      byName = new Map();
      this.plans.set(document, byName);
    }
    const key = operationName ?? '';
    let plan = byName.get(key);
    if (plan === undefined) {
      plan = this.decide(document, operationName);
      byName.set(key, plan);
    }
    return plan;
  }

  private decide(document: DocumentNode, operationName: string | undefined): PublicReadPlan | null {
    const operation = getOperationAST(document, operationName);
    const query = this.schema.getQueryType();
    if (!operation || operation.operation !== OperationTypeNode.QUERY || !query) return null;
    const fragments = new Map<string, FragmentDefinitionNode>();
    for (const d of document.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);
    const topics = new Set<string>();
    const walk = (type: GraphQLObjectType, set: SelectionSetNode, isRoot: boolean): boolean => {
      for (const s of set.selections) {
        if (s.kind === Kind.FIELD) {
          if (s.name.value === '__typename') continue;
          const field = type.getFields()[s.name.value];
          if (!field) return false;
          const declared = publicReadOf(field.extensions);
          if (declared) {
            if (declared.invalidatedBy) topics.add(declared.invalidatedBy);
          } else if (isRoot || this.resolvedFields.has(`${type.name}.${field.name}`)) {
            return false;
          }
          if (s.selectionSet) {
            const inner = getNamedType(field.type);
            // Abstract types would need every possible type checked: executed every time.
            if (!isObjectType(inner) || !walk(inner, s.selectionSet, false)) return false;
          }
        } else {
          const fragment = s.kind === Kind.INLINE_FRAGMENT ? s : fragments.get(s.name.value);
          if (!fragment) return false;
          const on = fragment.typeCondition?.name.value;
          if (on !== undefined && on !== type.name) return false;
          if (!walk(type, fragment.selectionSet, isRoot)) return false;
        }
      }
      return true;
    };
    return walk(query, operation.selectionSet, true) ? { topics: [...topics] } : null;
  }
}

type FieldExtensions = Readonly<Record<string, unknown>> | null | undefined;

function publicReadOf(extensions: FieldExtensions): PublicReadExtension | undefined {
  return extensions?.[PUBLIC_READ] as PublicReadExtension | undefined;
}
