import { type DataProvider, useDataProvider } from 'react-admin';
import type { ShopDataProvider } from './data-provider.ts';

/**
 * react-admin's data provider (its error handling around every call) with the shop's own calls
 * typed: the provider App hands to <Admin> is `createDataProvider`'s.
 */
export const useShopDataProvider = () => useDataProvider<DataProvider & ShopDataProvider>();
