import { defineConfig } from 'drizzle-kit';

// `npm run db:generate` writes a reviewed SQL migration into src/server/db/migrations from the schema.
export default defineConfig({
  dialect: 'postgresql',
  schema: './src/server/db/schema.ts',
  out: './src/server/db/migrations',
});
