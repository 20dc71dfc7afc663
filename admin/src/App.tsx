import { type ComponentType, lazy, type ReactElement, Suspense } from 'react';
import { Admin, Loading, Resource } from 'react-admin';
import { createAdminClient, createAuthProvider } from './auth-provider.ts';
import { createDataProvider } from './data-provider.ts';
import { ShopLayout, ShopLogin, theme } from './layout.tsx';

// The screens load on first use, so the login page carries only react-admin's core.
function lazyScreen(load: () => Promise<{ default: ComponentType }>): () => ReactElement {
  const Screen = lazy(load);
  return function LazyScreen() {
    return (
      <Suspense fallback={<Loading />}>
        <Screen />
      </Suspense>
    );
  };
}

const screen = <Name extends string>(load: () => Promise<Record<Name, ComponentType>>, name: Name) =>
  lazyScreen(() => load().then((module) => ({ default: module[name] })));

const products = () => import('./screens/products.tsx');
const variants = () => import('./screens/variants.tsx');
const catalogImport = () => import('./screens/catalog-import.tsx');
const categories = () => import('./screens/categories.tsx');
const orders = () => import('./screens/orders.tsx');
const customers = () => import('./screens/customers.tsx');
const promotions = () => import('./screens/promotions.tsx');
const promotionRules = () => import('./screens/promotion-rules.tsx');
const cms = () => import('./screens/cms.tsx');
const media = () => import('./screens/media.tsx');
const shipping = () => import('./screens/shipping.tsx');
const system = () => import('./screens/system.tsx');
const operations = () => import('./screens/operations.tsx');
const reports = () => import('./screens/reports.tsx');
const audit = () => import('./screens/audit.tsx');
const Dashboard = screen(() => import('./screens/dashboard.tsx'), 'Dashboard');

// The screens of each resource; the access rules are in resources.ts.
const resources = (
  <>
    <Resource
      name="orders"
      options={{ label: 'Orders' }}
      list={screen(orders, 'OrderList')}
      show={screen(orders, 'OrderShow')}
      recordRepresentation="number"
    />
    <Resource
      name="products"
      options={{ label: 'Products' }}
      list={screen(products, 'ProductList')}
      edit={screen(products, 'ProductEdit')}
      create={screen(products, 'ProductCreate')}
      recordRepresentation="name"
    />
    <Resource
      name="variants"
      edit={screen(variants, 'VariantEdit')}
      create={screen(variants, 'VariantCreate')}
      recordRepresentation="sku"
    />
    <Resource
      name="productImport"
      options={{ label: 'Product import' }}
      list={screen(catalogImport, 'ProductImport')}
    />
    <Resource name="media" options={{ label: 'Media library' }} list={screen(media, 'MediaList')} />
    <Resource
      name="categories"
      options={{ label: 'Categories' }}
      list={screen(categories, 'CategoryList')}
      edit={screen(categories, 'CategoryEdit')}
      create={screen(categories, 'CategoryCreate')}
      recordRepresentation="name"
    />
    <Resource
      name="customers"
      options={{ label: 'Customers' }}
      list={screen(customers, 'CustomerList')}
      show={screen(customers, 'CustomerShow')}
      edit={screen(customers, 'CustomerEdit')}
      recordRepresentation="email"
    />
    <Resource name="addresses" />
    <Resource
      name="coupons"
      options={{ label: 'Coupons' }}
      list={screen(promotions, 'CouponList')}
      edit={screen(promotions, 'CouponEdit')}
      create={screen(promotions, 'CouponCreate')}
      recordRepresentation="code"
    />
    <Resource
      name="promotions"
      options={{ label: 'Promotions' }}
      list={screen(promotionRules, 'PromotionList')}
      edit={screen(promotionRules, 'PromotionEdit')}
      create={screen(promotionRules, 'PromotionCreate')}
      recordRepresentation="name"
    />
    <Resource
      name="gifts"
      options={{ label: 'Gifts' }}
      list={screen(promotions, 'GiftList')}
      edit={screen(promotions, 'GiftEdit')}
      create={screen(promotions, 'GiftCreate')}
    />
    <Resource
      name="transports"
      options={{ label: 'Shipping methods' }}
      list={screen(promotions, 'TransportList')}
      edit={screen(promotions, 'TransportEdit')}
      create={screen(promotions, 'TransportCreate')}
      recordRepresentation="name"
    />
    <Resource
      name="shippingZones"
      options={{ label: 'Shipping zones' }}
      list={screen(shipping, 'ZoneList')}
      edit={screen(shipping, 'ZoneEdit')}
      create={screen(shipping, 'ZoneCreate')}
      recordRepresentation="name"
    />
    <Resource
      name="shippingRates"
      options={{ label: 'Shipping rates' }}
      list={screen(shipping, 'RateList')}
      edit={screen(shipping, 'RateEdit')}
      create={screen(shipping, 'RateCreate')}
    />
    <Resource
      name="taxRates"
      options={{ label: 'Tax rates' }}
      list={screen(shipping, 'TaxRateList')}
      edit={screen(shipping, 'TaxRateEdit')}
      create={screen(shipping, 'TaxRateCreate')}
    />
    <Resource
      name="reels"
      options={{ label: 'Reels' }}
      list={screen(cms, 'ReelList')}
      edit={screen(cms, 'ReelEdit')}
      create={screen(cms, 'ReelCreate')}
      recordRepresentation="title"
    />
    <Resource
      name="sliderGroups"
      options={{ label: 'Slider groups' }}
      list={screen(cms, 'SliderGroupList')}
      edit={screen(cms, 'SliderGroupEdit')}
      create={screen(cms, 'SliderGroupCreate')}
      recordRepresentation="name"
    />
    <Resource
      name="sliders"
      options={{ label: 'Slides' }}
      list={screen(cms, 'SliderList')}
      edit={screen(cms, 'SliderEdit')}
      create={screen(cms, 'SliderCreate')}
      recordRepresentation="title"
    />
    <Resource
      name="settings"
      options={{ label: 'Settings' }}
      list={screen(system, 'SettingList')}
      edit={screen(system, 'SettingEdit')}
      recordRepresentation="key"
    />
    <Resource
      name="adminUsers"
      options={{ label: 'Back-office users' }}
      list={screen(system, 'AdminUserList')}
      edit={screen(system, 'AdminUserEdit')}
      create={screen(system, 'AdminUserCreate')}
      recordRepresentation="username"
    />
    <Resource
      name="webhooks"
      options={{ label: 'Webhooks' }}
      list={screen(operations, 'WebhookList')}
      show={screen(operations, 'WebhookShow')}
      edit={screen(operations, 'WebhookEdit')}
      create={screen(operations, 'WebhookCreate')}
      recordRepresentation="url"
    />
    <Resource name="webhookDeliveries" />
    <Resource name="mail" options={{ label: 'Mail outbox' }} list={screen(operations, 'MailList')} />
    <Resource name="loyaltyLedger" />
    <Resource name="reports" options={{ label: 'Reports' }} list={screen(reports, 'Reports')} />
    <Resource name="audit" options={{ label: 'Audit log' }} list={screen(audit, 'AuditList')} />
  </>
);

const client = createAdminClient(window.location.origin, window.localStorage);
const authProvider = createAuthProvider(client, window.localStorage);
const dataProvider = createDataProvider(client);

export function App() {
  return (
    <Admin
      title="Shop back office"
      dashboard={Dashboard}
      authProvider={authProvider}
      // The provider's methods take the parameters react-admin passes; its types are its own.
      dataProvider={dataProvider as never}
      requireAuth
      layout={ShopLayout}
      loginPage={ShopLogin}
      theme={theme}
      disableTelemetry
    >
      {resources}
    </Admin>
  );
}
