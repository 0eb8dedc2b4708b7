/** GET /openapi.json: the API's OpenAPI 3.1 document, built once, for the origin it is served at. */
import express from 'express';
import { openApiDocument } from './document';

export { openApiDocument } from './document';

export function openApiRoutes(ownOrigin: () => string): express.Router {
  const router = express.Router();
  let document: string | undefined;
  router.get('/openapi.json', (_req, res) => {
    document ??= JSON.stringify(openApiDocument(ownOrigin()));
    res.type('json').send(document);
  });
  return router;
}
