import { Type } from 'typebox';
import { SuccessEnvelope } from './envelope.js';

export const AppSettingsSchema = Type.Object({
  localizedLabels: Type.Record(Type.String(), Type.String()),
  mergeMatchingLineItems: Type.Optional(Type.Boolean()),
});

export const AppSettingsQuery = Type.Object({
  locale: Type.Optional(
    Type.String({ description: 'ISO locale such as `en`, `fr`, `fr-CA`; unknown ones fall back.' }),
  ),
});

export const AppSettingsMeta = Type.Object({ locale: Type.String() });

export const AppSettingsResponse = SuccessEnvelope(Type.Object({ settings: AppSettingsSchema }), AppSettingsMeta);
