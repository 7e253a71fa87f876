import {
  getNamedType,
  isEnumType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  OperationTypeNode,
  Kind,
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLObjectType,
  type GraphQLOutputType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';

/** A JSON Schema object (OpenAPI 3.1 uses JSON Schema 2020-12). */
export type JsonSchema = Record<string, unknown>;

const SCALARS: Record<string, JsonSchema> = {
  String: { type: 'string' },
  ID: { type: 'string' },
  Int: { type: 'integer' },
  Float: { type: 'number' },
  Boolean: { type: 'boolean' },
  DateTimeISO: { type: 'string', format: 'date-time' },
  JSONObject: { type: 'object' },
};

/**
 * The JSON Schema of a route's response, derived from its operation's selection
 * set: the documented shape is exactly what the document selects.
 */
export function responseSchema(schema: GraphQLSchema, document: DocumentNode, resultPath: string): JsonSchema {
  const op = document.definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION)!;
  const fragments = new Map(
    document.definitions
      .filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION)
      .map((f) => [f.name.value, f]),
  );
  const rootType =
    op.operation === OperationTypeNode.QUERY
      ? schema.getQueryType()
      : op.operation === OperationTypeNode.MUTATION
        ? schema.getMutationType()
        : schema.getSubscriptionType();
  let js = objectSchema(rootType!, op.selectionSet, fragments, schema);
  for (const key of resultPath.split('.')) js = (js.properties as Record<string, JsonSchema>)[key]!;
  return js;
}

function objectSchema(
  type: GraphQLObjectType,
  set: SelectionSetNode,
  fragments: Map<string, FragmentDefinitionNode>,
  schema: GraphQLSchema,
): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  const visit = (s: SelectionSetNode) => {
    for (const sel of s.selections) {
      if (sel.kind === Kind.FRAGMENT_SPREAD) visit(fragments.get(sel.name.value)!.selectionSet);
      else if (sel.kind === Kind.INLINE_FRAGMENT) visit(sel.selectionSet);
      else {
        const name = sel.alias?.value ?? sel.name.value;
        if (sel.name.value === '__typename') {
          properties[name] = { type: 'string' };
          continue;
        }
        const field = type.getFields()[sel.name.value];
        properties[name] = typeSchema(field.type, sel.selectionSet, fragments, schema);
        if (field.description) properties[name] = { ...properties[name], description: field.description };
        if (isNonNullType(field.type)) required.push(name);
      }
    }
  };
  visit(set);
  return { type: 'object', properties, required: [...new Set(required)] };
}

function typeSchema(
  type: GraphQLOutputType,
  set: SelectionSetNode | undefined,
  fragments: Map<string, FragmentDefinitionNode>,
  schema: GraphQLSchema,
): JsonSchema {
  if (isNonNullType(type)) return baseSchema(type.ofType, set, fragments, schema);
  return nullable(baseSchema(type, set, fragments, schema));
}

function nullable(js: JsonSchema): JsonSchema {
  if (typeof js.type === 'string') {
    const enumValues = js.enum as unknown[] | undefined;
    return { ...js, type: [js.type, 'null'], ...(enumValues && { enum: [...enumValues, null] }) };
  }
  return { anyOf: [js, { type: 'null' }] };
}

function baseSchema(
  type: GraphQLOutputType,
  set: SelectionSetNode | undefined,
  fragments: Map<string, FragmentDefinitionNode>,
  schema: GraphQLSchema,
): JsonSchema {
  let inner: JsonSchema;
  if (isListType(type)) {
    inner = { type: 'array', items: typeSchema(type.ofType, set, fragments, schema) };
  } else {
    const named = getNamedType(type);
    if (isEnumType(named)) inner = { type: 'string', enum: named.getValues().map((v) => v.value as string) };
    // A custom scalar may describe its JSON shape in `extensions.jsonSchema`.
    else if (isScalarType(named))
      inner = SCALARS[named.name] ?? (named.extensions.jsonSchema as JsonSchema | undefined) ?? {};
    else if (isObjectType(named) && set) inner = objectSchema(named, set, fragments, schema);
    else inner = {};
  }
  return inner;
}
