import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getCurrencySettings } from '../../src/server/domains/settings/settings.service';
import { startTestApp, type TestApp } from '../helpers/app';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

describe('currency settings', () => {
  it('starts at LKR / USD 320.75 and is readable by staff, not by other roles', async () => {
    const manager = await t.userWithSession('manager');
    expect(await t.trpc(manager.token).settings.getCurrency.query()).toEqual({
      localCurrency: 'LKR',
      foreignCurrency: 'USD',
      exchangeRate: 320.75,
    });
    const student = await t.userWithSession('student');
    await expect(t.trpc(student.token).settings.getCurrency.query()).rejects.toMatchObject({
      data: { code: 'FORBIDDEN' },
    });
    await expect(t.trpc().settings.getCurrency.query()).rejects.toMatchObject({ data: { code: 'UNAUTHORIZED' } });
  });

  it('lets an admin change the currencies and a rate with up to 4 decimals; the rest of the server sees it', async () => {
    const admin = await t.userWithSession('admin');
    const saved = await t
      .trpc(admin.token)
      .settings.updateCurrency.mutate({ localCurrency: ' lkr ', foreignCurrency: 'eur', exchangeRate: 345.1234 });
    expect(saved).toEqual({ localCurrency: 'LKR', foreignCurrency: 'EUR', exchangeRate: 345.1234 });
    expect(await getCurrencySettings(t.deps.db)).toEqual(saved);
    const manager = await t.userWithSession('manager');
    expect(await t.trpc(manager.token).settings.getCurrency.query()).toEqual(saved);

    const superadmin = await t.userWithSession('superadmin');
    expect(
      await t
        .trpc(superadmin.token)
        .settings.updateCurrency.mutate({ localCurrency: 'LKR', foreignCurrency: 'USD', exchangeRate: 300 }),
    ).toMatchObject({ exchangeRate: 300 });
  });

  it('refuses a manager', async () => {
    const manager = await t.userWithSession('manager');
    await expect(
      t
        .trpc(manager.token)
        .settings.updateCurrency.mutate({ localCurrency: 'LKR', foreignCurrency: 'USD', exchangeRate: 1 }),
    ).rejects.toMatchObject({ data: { code: 'FORBIDDEN' } });
  });

  it.each([
    [{ exchangeRate: 0 }, 'Exchange rate must be greater than 0.'],
    [{ exchangeRate: -3 }, 'Exchange rate must be greater than 0.'],
    [{ exchangeRate: 1.23456 }, 'Exchange rate can have at most 4 decimal places.'],
    [{ localCurrency: 'RUPEES' }, 'Local currency must be a 3-letter currency code, such as LKR or USD.'],
    [{ foreignCurrency: 'LKR' }, 'Local and foreign currency must be different.'],
  ])('rejects %o with a clear message and keeps the old values', async (change, message) => {
    const admin = await t.userWithSession('admin');
    const before = await getCurrencySettings(t.deps.db);
    await expect(
      t.trpc(admin.token).settings.updateCurrency.mutate({
        localCurrency: 'LKR',
        foreignCurrency: 'USD',
        exchangeRate: 320.75,
        ...change,
      }),
    ).rejects.toMatchObject({ data: { code: 'BAD_REQUEST' }, message });
    expect(await getCurrencySettings(t.deps.db)).toEqual(before);
  });
});
