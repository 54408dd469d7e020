import { lazy, Suspense, useEffect, type ComponentType, type ReactNode } from "react";
import { createBrowserRouter, Navigate, Outlet, useLocation, useSearchParams, type RouteObject } from "react-router";
import { PageLoader } from "../components/page-loader";
import type { ScreenId } from "../features/placeholders/screens";
import { NotFoundPage } from "../features/shell/not-found-page";
import { RouteErrorPage } from "../features/shell/route-error-page";
import { DATABASE_CHILDREN, KNOWLEDGE_CHILDREN, PATHS } from "../lib/paths";
import { safeReturnTo } from "./return-to";
import { useSession } from "../lib/api/session";

/** React.lazy for a module's named export. */
function lazyNamed<Module, Name extends keyof Module>(load: () => Promise<Module>, name: Name) {
  return lazy(async () => ({ default: (await load())[name] as ComponentType<Record<string, unknown>> }));
}

const HomeLayout = lazyNamed(() => import("../features/shell/home-layout"), "HomeLayout");
const ConsoleLayout = lazyNamed(() => import("../features/shell/console-layout"), "ConsoleLayout");
const LoginPage = lazyNamed(() => import("../features/auth/login-page"), "LoginPage");
const RegisterPage = lazyNamed(() => import("../features/auth/register-page"), "RegisterPage");
const ForgotPasswordPage = lazyNamed(() => import("../features/auth/forgot-password-page"), "ForgotPasswordPage");
const AccountPage = lazyNamed(() => import("../features/account/account-page"), "AccountPage");
const PricePage = lazyNamed(() => import("../features/payments/price-page"), "PricePage");
const AppsPage = lazyNamed(() => import("../features/apps/apps-page"), "AppsPage");
const CreateAppPage = lazyNamed(() => import("../features/apps/create-app-page"), "CreateAppPage");
const AppEditorPage = lazyNamed(() => import("../features/apps/app-editor-page"), "AppEditorPage");
const AppChatPage = lazyNamed(() => import("../features/chat/app-chat-page"), "AppChatPage");
const PluginsPage = lazyNamed(() => import("../features/plugins/plugins-page"), "PluginsPage");
const PluginEditorPage = lazyNamed(() => import("../features/plugins/plugin-editor-page"), "PluginEditorPage");
const IntegrationsPage = lazyNamed(() => import("../features/integrations/integrations-page"), "IntegrationsPage");
const KnowledgeListPage = lazyNamed(() => import("../features/knowledge/knowledge-list-page"), "KnowledgeListPage");
const KnowledgeManageLayout = lazyNamed(() => import("../features/knowledge/knowledge-manage-layout"), "KnowledgeManageLayout");
const KnowledgeManageIndex = lazyNamed(() => import("../features/knowledge/knowledge-manage-layout"), "KnowledgeManageIndex");
const DatabaseListPage = lazyNamed(() => import("../features/database/database-list-page"), "DatabaseListPage");
const DatabaseSectionLayout = lazyNamed(() => import("../features/database/database-section-layout"), "DatabaseSectionLayout");
const DATABASE_SCREENS = {
  preview: lazyNamed(() => import("../features/database/preview-page"), "PreviewPage"),
  tableConfig: lazyNamed(() => import("../features/database/table-config-page"), "TableConfigPage"),
  databaseConfig: lazyNamed(() => import("../features/database/database-config-page"), "DatabaseConfigPage"),
} as const;
const KNOWLEDGE_SCREENS = {
  baseAll: lazyNamed(() => import("../features/knowledge/base-overview-page"), "BaseOverviewPage"),
  baseFile: lazyNamed(() => import("../features/knowledge/base-files-page"), "BaseFilesPage"),
  importFile: lazyNamed(() => import("../features/knowledge/import-file-page"), "ImportFilePage"),
  retrievalFile: lazyNamed(() => import("../features/knowledge/retrieval-test-page"), "RetrievalTestPage"),
  evaluation: lazyNamed(() => import("../features/knowledge/evaluation-page"), "EvaluationPage"),
  baseSetting: lazyNamed(() => import("../features/knowledge/base-settings-page"), "BaseSettingsPage"),
  mediaResource: lazyNamed(() => import("../features/knowledge/media-resource-page"), "MediaResourcePage"),
} satisfies Record<(typeof KNOWLEDGE_CHILDREN)[number], ComponentType>;
const RoleEditPage = lazyNamed(() => import("../features/team/roles/role-edit-page"), "RoleEditPage");
const AnalysisPage = lazyNamed(() => import("../features/analysis/analysis-page"), "AnalysisPage");
const ClientsPage = lazyNamed(() => import("../features/clients/clients-page"), "ClientsPage");
const ClientConfigPage = lazyNamed(() => import("../features/clients/client-config-page"), "ClientConfigPage");
const ChannelPickerPage = lazyNamed(() => import("../features/clients/channel-picker-page"), "ChannelPickerPage");
const ChatManagePage = lazyNamed(() => import("../features/chat-manage/chat-manage-page"), "ChatManagePage");
const BenefitsPage = lazyNamed(() => import("../features/benefits/benefits-page"), "BenefitsPage");
const InstancePage = lazyNamed(() => import("../features/instance/instance-page"), "InstancePage");
const TeamSpacePage = lazyNamed(() => import("../features/team/team-space-page"), "TeamSpacePage");
const CustomerListPage = lazyNamed(() => import("../features/customers/customer-list-page"), "CustomerListPage");
const TagListPage = lazyNamed(() => import("../features/customers/tag-list-page"), "TagListPage");
const WorkflowsPage = lazyNamed(() => import("../features/workflows/workflows-page"), "WorkflowsPage");
const WorkflowEditorPage = lazyNamed(() => import("../features/workflows/workflow-editor-page"), "WorkflowEditorPage");
const TemplatesPage = lazyNamed(() => import("../features/templates/templates-page"), "TemplatesPage");
const TemplateDetailPage = lazyNamed(() => import("../features/templates/template-detail-page"), "TemplateDetailPage");
const ContactFormPage = lazyNamed(() => import("../features/templates/contact-form-page"), "ContactFormPage");
const PluginKeyPage = lazyNamed(() => import("../features/templates/plugin-key-page"), "PluginKeyPage");
const StorePage = lazyNamed(() => import("../features/store/store-page"), "StorePage");
const SquarePage = lazyNamed(() => import("../features/store/square-page"), "SquarePage");
const PaintPage = lazyNamed(() => import("../features/paint/paint-page"), "PaintPage");
const ComingSoonPage = lazy(async () => ({ default: (await import("../features/placeholders/coming-soon-page")).ComingSoonPage }));
const SectionLayout = lazy(async () => ({ default: (await import("../features/placeholders/section-layout")).SectionLayout }));

/** Spec §2: scroll resets to the top on every navigation. */
function ScrollToTop() {
  const { pathname } = useLocation();
  useEffect(() => {
    window.scrollTo(0, 0);
  }, [pathname]);
  return null;
}

function RootLayout() {
  return (
    <>
      <ScrollToTop />
      <Suspense fallback={<PageLoader />}>
        <Outlet />
      </Suspense>
    </>
  );
}

/** Sign-in pages send someone already signed in on to where they were going. */
function GuestOnly({ children }: { children: ReactNode }) {
  const { token } = useSession();
  const [params] = useSearchParams();
  if (token) return <Navigate to={safeReturnTo(params.get("returnTo"))} replace />;
  return children;
}

const redirect = (to: string): ReactNode => <Navigate to={to} replace />;
const screen = (id: ScreenId, options: { header?: boolean; standalone?: boolean } = {}): ReactNode => <ComingSoonPage screen={id} {...options} />;

/** Every route of spec §2, with its redirects; unknown addresses go to /404. */
export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    errorElement: <RouteErrorPage />,
    children: [
      { path: PATHS.root, element: redirect(PATHS.agents) },
      { path: PATHS.portal, element: redirect(PATHS.agents) },
      { path: PATHS.portalNew, element: redirect(PATHS.agents) },
      {
        path: PATHS.login,
        element: (
          <GuestOnly>
            <LoginPage />
          </GuestOnly>
        ),
      },
      {
        path: PATHS.register,
        element: (
          <GuestOnly>
            <RegisterPage />
          </GuestOnly>
        ),
      },
      { path: PATHS.forgotPassword, element: <ForgotPasswordPage /> },
      {
        element: <HomeLayout />,
        children: [
          { path: PATHS.home, element: <StorePage /> },
          { path: PATHS.square, element: <SquarePage /> },
          { path: PATHS.chat, element: <AppChatPage /> },
          { path: PATHS.paint, element: <PaintPage /> },
          { path: PATHS.templates, element: <TemplatesPage /> },
          { path: PATHS.template, element: <TemplateDetailPage /> },
          { path: PATHS.pluginKey, element: <PluginKeyPage /> },
          { path: PATHS.benefits, element: <BenefitsPage /> },
        ],
      },
      {
        path: PATHS.console,
        element: <ConsoleLayout />,
        children: [
          { index: true, element: redirect(PATHS.agents) },
          { path: "agents", element: <AppsPage /> },
          { path: "createApp", element: <CreateAppPage /> },
          { path: "agent", element: <AppEditorPage /> },
          { path: "Integrations", element: <IntegrationsPage /> },
          { path: "account", element: <AccountPage /> },
          { path: "chatManage", element: <ChatManagePage /> },
          { path: "clients", element: <ClientsPage /> },
          { path: "clients/configClient", element: <ChannelPickerPage /> },
          { path: "clients/config", element: <ClientConfigPage /> },
          { path: "analysis", element: <AnalysisPage /> },
          {
            path: "knowledge",
            children: [
              { index: true, element: <KnowledgeListPage /> },
              {
                path: "knowledgeManage",
                element: <KnowledgeManageLayout />,
                children: [
                  { index: true, element: <KnowledgeManageIndex /> },
                  ...KNOWLEDGE_CHILDREN.map((child) => {
                    const Screen = KNOWLEDGE_SCREENS[child];
                    return { path: child, element: <Screen /> };
                  }),
                ],
              },
            ],
          },
          {
            path: "database",
            children: [
              { index: true, element: <DatabaseListPage /> },
              {
                element: <DatabaseSectionLayout />,
                children: DATABASE_CHILDREN.map((child) => {
                  const Screen = DATABASE_SCREENS[child];
                  return { path: child, element: <Screen /> };
                }),
              },
            ],
          },
          { path: "plugins", element: <PluginsPage /> },
          { path: "plugins/detail", element: <PluginEditorPage /> },
          { path: "templates", element: <TemplatesPage /> },
          { path: "template/:code", element: <TemplateDetailPage /> },
          { path: "square", element: <SquarePage /> },
          { path: "workflows", element: <WorkflowsPage /> },
          { path: "workflow", element: <WorkflowEditorPage /> },
          { path: "instance", element: <InstancePage /> },
          { path: "teamSpace", element: <TeamSpacePage /> },
          { path: "teamSpace/roleEdit", element: <RoleEditPage /> },
          { path: "price", element: <PricePage /> },
          {
            path: "customManage",
            element: <SectionLayout screen="customManage" base={PATHS.customManage} tabs={["customerList", "tagList"]} data-testid="custom-manage" />,
            children: [
              { index: true, element: redirect(PATHS.customerList) },
              { path: "customerList", element: <CustomerListPage /> },
              { path: "tagList", element: <TagListPage /> },
            ],
          },
          { path: "*", element: redirect(PATHS.notFound) },
        ],
      },
      { path: PATHS.webAgent, element: screen("webAgent", { standalone: true }) },
      { path: PATHS.webIframe, element: screen("webIframe", { standalone: true }) },
      { path: PATHS.fillForm, element: <ContactFormPage /> },
      { path: PATHS.iframe, element: screen("iframe", { standalone: true }) },
      { path: PATHS.notFound, element: <NotFoundPage /> },
      { path: "*", element: redirect(PATHS.notFound) },
    ],
  },
];

/** Creates the console's browser router. */
export function createConsoleRouter() {
  return createBrowserRouter(routes);
}
