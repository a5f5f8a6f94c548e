import { test } from 'node:test';
import assert from 'node:assert/strict';
import { describeRecommendationChange } from '../../src/recommender/recommendation-change.ts';

const rec = (...containers: [string, string, string, string?][]) => ({
  containerRecommendations: containers.map(([containerName, cpu, memory, upper]) => ({
    containerName,
    target: { cpu, memory },
    ...(upper ? { upperBound: { cpu, memory: upper } } : {}),
  })),
});

test('the first recommendation, and a change: per container, from and to, in readable units', () => {
  assert.deepEqual(describeRecommendationChange('shop/web', undefined, rec(['app', '224m', '250Mi'])), {
    message: 'recommendation made for shop/web: app cpu 224m, memory 250Mi',
    routine: false,
  });
  assert.deepEqual(
    describeRecommendationChange(
      'shop/web',
      rec(['app', '250m', '268435456'], ['side', '10m', '64Mi']),
      rec(['app', '2', '235358127'], ['side', '10m', '64Mi']),
    ),
    {
      message: 'recommendation changed for shop/web: app cpu 250m→2, memory 256Mi→~224.5Mi',
      routine: false,
    },
  );
});

test('a container gone is said; bounds alone are routine; the same recommendation is nothing', () => {
  assert.equal(
    describeRecommendationChange('shop/web', rec(['app', '1', '1Gi'], ['old', '1', '1Gi']), rec(['app', '1', '1Gi']))?.message,
    'recommendation changed for shop/web: old no longer recommended',
  );
  assert.deepEqual(describeRecommendationChange('shop/web', rec(['app', '1', '1Gi', '2Gi']), rec(['app', '1', '1Gi', '3Gi'])), {
    message: 'recommendation bounds changed for shop/web (targets unchanged)',
    routine: true,
  });
  assert.equal(describeRecommendationChange('shop/web', rec(['app', '1', '1Gi']), rec(['app', '1', '1Gi'])), undefined);
  assert.equal(describeRecommendationChange('shop/web', undefined, undefined), undefined);
});
