import { WechatOutlined } from "@ant-design/icons";
import { Alert, Button, Card, List, Popconfirm, Space, Typography } from "antd";
import { useEffect, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { invalidateSpace, useSpaceQuery } from "../../lib/api/query";
import { feedback } from "../../lib/feedback";
import { formatDateTime } from "../../lib/format";
import { channelEndpoints, type WechatBinding, type WechatBindingCode } from "../../lib/api/channel-clients";

/** The signed-in member's WeChat bindings (to every official account of the space). */
const WECHAT_BINDINGS = ["wechat-bindings"];

/** How often the bindings are re-read while a code waits to be sent from WeChat. */
const POLL_MS = 3000;

export interface WechatBindingCardProps {
  /** The official account client (saved). */
  clientId: string;
}

/**
 * On an official account client's page: the signed-in member gets a code, sends "BIND <code>"
 * to the account from their WeChat, and sees their bindings to this account (with remove).
 */
export function WechatBindingCard({ clientId }: WechatBindingCardProps) {
  const { t, i18n } = useTranslation();
  const query = useSpaceQuery({ key: WECHAT_BINDINGS, fetch: (signal) => channelEndpoints.wechatBindings({ silent: true, signal }) });
  const bindings = useMemo(() => query.data?.filter((binding) => binding.clientId === clientId), [query.data, clientId]);
  const [code, setCode] = useState<WechatBindingCode>();
  const [asking, setAsking] = useState(false);

  const load = async (): Promise<WechatBinding[] | undefined> => (await query.refetch()).data?.filter((binding) => binding.clientId === clientId);

  // While a code is live, watch for the binding it makes (the member sends it from their phone).
  useEffect(() => {
    if (!code) return;
    const known = new Set((bindings ?? []).map((binding) => `${binding.id}:${binding.createdAt}`));
    const timer = setInterval(() => {
      if (Date.parse(code.expiresAt) <= Date.now()) {
        setCode(undefined);
        return;
      }
      void load().then((fresh) => {
        if (fresh?.some((binding) => !known.has(`${binding.id}:${binding.createdAt}`))) {
          setCode(undefined);
          feedback.success(t("clients.channelConfig.bindDone"));
        }
      });
    }, POLL_MS);
    return () => clearInterval(timer);
  }, [code?.code]);

  const ask = async () => {
    setAsking(true);
    try {
      const result = await channelEndpoints.wechatBindingCode(clientId);
      if (result.ok) setCode(result.data);
    } finally {
      setAsking(false);
    }
  };

  const remove = async (id: string) => {
    const result = await channelEndpoints.removeWechatBinding(id);
    if (!result.ok) return;
    feedback.success(t("clients.channelConfig.bindRemoved"));
    await invalidateSpace(WECHAT_BINDINGS);
  };

  return (
    <Card
      title={
        <Space>
          <WechatOutlined />
          {t("clients.channelConfig.bindTitle")}
        </Space>
      }
      data-testid="wechat-binding"
    >
      <Space direction="vertical" size={12} style={{ width: "100%" }}>
        <Typography.Text type="secondary">{t("clients.channelConfig.bindHelp")}</Typography.Text>
        {code && (
          <Alert
            type="info"
            showIcon
            message={<span data-testid="wechat-binding-instruction">{t("clients.channelConfig.bindSend", { command: code.command })}</span>}
            description={
              <Space direction="vertical" size={4}>
                <Typography.Text copyable={{ text: code.command }} strong className="pl-client-code" data-testid="wechat-binding-command">
                  {code.command}
                </Typography.Text>
                <Typography.Text type="secondary">{t("clients.channelConfig.bindWaiting")}</Typography.Text>
              </Space>
            }
          />
        )}
        <Button icon={<WechatOutlined />} loading={asking} onClick={() => void ask()} data-testid="wechat-binding-code">
          {code ? t("clients.channelConfig.bindNewCode") : t("clients.channelConfig.bindGetCode")}
        </Button>
        {bindings && (
          <List
            size="small"
            dataSource={bindings}
            locale={{ emptyText: t("clients.channelConfig.bindNone") }}
            data-testid="wechat-binding-list"
            renderItem={(binding) => (
              <List.Item
                actions={[
                  <Popconfirm key="remove" title={t("clients.channelConfig.bindRemoveConfirm")} onConfirm={() => void remove(binding.id)}>
                    <Button size="small" type="link" danger data-testid="wechat-binding-remove">
                      {t("clients.channelConfig.bindRemove")}
                    </Button>
                  </Popconfirm>,
                ]}
              >
                <List.Item.Meta
                  title={<Typography.Text code>{binding.openid}</Typography.Text>}
                  description={
                    <Space direction="vertical" size={0}>
                      <span>{t("clients.channelConfig.bindBound", { when: formatDateTime(binding.createdAt, i18n.language) })}</span>
                      {binding.lastNoticeError && (
                        <Typography.Text type="warning">{t("clients.channelConfig.bindLastError", { error: binding.lastNoticeError })}</Typography.Text>
                      )}
                    </Space>
                  }
                />
              </List.Item>
            )}
          />
        )}
      </Space>
    </Card>
  );
}
