import { Type } from 'typebox';
import { SuccessEnvelope, exampleSuccess } from './envelope.js';

export const AppSettingsSchema = Type.Object({
  localizedLabels: Type.Record(Type.String(), Type.String()),
  mergeMatchingLineItems: Type.Optional(Type.Boolean()),
});

export const AppSettingsQuery = Type.Object({
  locale: Type.Optional(
    Type.String({
      description: 'ISO locale such as `en`, `fr`, `fr-CA`; unknown ones fall back.',
      examples: ['fr-CA'],
    }),
  ),
});

export const AppSettingsMeta = Type.Object({ locale: Type.String() });

export const AppSettingsResponse = SuccessEnvelope(Type.Object({ settings: AppSettingsSchema }), AppSettingsMeta, {
  examples: [
    exampleSuccess(
      {
        settings: {
          localizedLabels: {
            unitPrice: 'Unit price',
            unitPrice_weight_value_kg: '{Price}/{Quantity}',
            netWeight: 'Net weight',
            netWeight_value_kg: '{Value} {Unit}',
            unitPricePropertyName: 'Unit price',
            unitPricePropertyValue: '{Price}/{Quantity}',
            netMeasurementLabel: 'Net quantity',
            netMeasurementValue: '{Value} {Unit}',
          },
          mergeMatchingLineItems: true,
        },
      },
      { locale: 'en' },
    ),
  ],
});
