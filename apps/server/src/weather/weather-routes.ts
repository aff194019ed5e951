// GET /tarkan/weather (session required): the header's weather where the caller is.
//   200 {temperature, weatherCode, isDay, city, timezone}
//   204 the weather is turned off (RASTRO_WEATHER_*_URL=off)
//   503 it cannot be told now (no internet, a provider failed or answered nonsense)
// The client asks every 60 s and hides the widget on anything but 200.
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.ts';
import { resolveCaller, sendUnauthorized } from '../auth/authenticate.ts';
import { httpWeatherProviders } from './weather-providers.ts';
import { createWeatherService, WeatherUnavailable } from './weather-service.ts';

export async function weatherRoutes(app: FastifyInstance, ctx: AppContext, providers = httpWeatherProviders(ctx.config.weather)): Promise<void> {
  const service = providers ? createWeatherService(providers) : null;

  app.get('/tarkan/weather', async (req, reply) => {
    // /tarkan is outside the /api authentication hook: resolve the caller here.
    req.user = await resolveCaller(ctx, req);
    if (!req.user) return sendUnauthorized(req, reply);
    reply.header('Cache-Control', 'private, no-store');
    if (!service) return reply.code(204).send();
    try {
      return await service.report(req.ip);
    } catch (error) {
      if (!(error instanceof WeatherUnavailable)) throw error;
      req.log.debug({ reason: error.message }, 'weather unavailable');
      return reply.code(503).type('text/plain; charset=utf-8').send(`Weather unavailable - ${error.message}`);
    }
  });
}
