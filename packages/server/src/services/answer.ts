/**
 * A read answer as the caches keep it: the payload objects plus their JSON text, serialized
 * once per cache entry rather than on every request (serialization was the largest share of a
 * warm request's CPU). Routes wrap `json` in the envelope with `successJson`.
 */
export interface Answer<Data, Meta> {
  data: Data;
  meta: Meta;
  json: { data: string; meta: string };
}

export function answer<Data, Meta>(data: Data, meta: Meta): Answer<Data, Meta> {
  return { data, meta, json: { data: JSON.stringify(data), meta: JSON.stringify(meta) } };
}
