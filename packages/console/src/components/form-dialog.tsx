import { Form, Modal, type FormInstance } from "antd";
import { useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";

/** Props of {@link FormDialog}. */
export interface FormDialogProps<Values> {
  open: boolean;
  title: ReactNode;
  okText: ReactNode;
  /** The form, when the caller sets values or field errors itself (e.g. a refusal under the field the server names). */
  form?: FormInstance<Values>;
  initialValues?: Partial<Values>;
  /**
   * Runs with the values once every rule passes; answering `true` means done, and the form
   * is reset (the caller closes the dialog, usually in the same handler).
   */
  onSubmit: (values: Values, form: FormInstance<Values>) => Promise<boolean>;
  onClose: () => void;
  /** Render the form while closed (a caller that reads or sets it before opening). */
  forceRender?: boolean;
  /** Unmount the form when closed (a fresh form each time); on by default. */
  destroyOnHidden?: boolean;
  requiredMark?: boolean;
  submitTestId: string;
  formTestId?: string;
  children: ReactNode;
}

/**
 * A modal holding one form: OK submits (so does Enter), the rules run first, the button spins
 * while the change is on its way, and a successful submit resets the form. Create and edit
 * dialogs of the console share it.
 */
export function FormDialog<Values>({
  open,
  title,
  okText,
  form: given,
  initialValues,
  onSubmit,
  onClose,
  forceRender,
  destroyOnHidden = true,
  requiredMark,
  submitTestId,
  formTestId,
  children,
}: FormDialogProps<Values>) {
  const { t } = useTranslation();
  const [own] = Form.useForm<Values>();
  const form = given ?? own;
  const [saving, setSaving] = useState(false);

  const finish = async (values: Values) => {
    setSaving(true);
    try {
      if (await onSubmit(values, form)) form.resetFields();
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open={open}
      title={title}
      okText={okText}
      cancelText={t("common.cancel")}
      confirmLoading={saving}
      onOk={() => form.submit()}
      onCancel={onClose}
      okButtonProps={{ "data-testid": submitTestId } as Record<string, string>}
      destroyOnHidden={destroyOnHidden}
      forceRender={forceRender}
    >
      <Form<Values>
        form={form}
        layout="vertical"
        requiredMark={requiredMark}
        initialValues={initialValues}
        onFinish={(values) => void finish(values)}
        data-testid={formTestId}
      >
        {children}
      </Form>
    </Modal>
  );
}
