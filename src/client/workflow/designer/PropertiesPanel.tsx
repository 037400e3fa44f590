// The designer's properties panel (antd, our own): the selected element's name; a user task's
// handlers — assignee, candidate users picked from our users, candidate groups picked from our
// roles by alias, or expressions such as ${applyUser} — and its multi-instance (countersign)
// settings; a flow out of an exclusive gateway's condition, checked live with the engine's
// parser, or its "default flow" mark. Every edit leaves as Writes (bpmn-props.ts).
import { Alert, Checkbox, Divider, Form, Input, Radio, Select, Switch, Typography } from 'antd';
import { useAtomValue } from 'jotai';
import { useState } from 'react';
import { useT } from '../../i18n/useT.ts';
import { langAtom } from '../../state/session.ts';
import {
  assignmentWrites,
  checkCondition,
  checkTemplate,
  conditionWrites,
  defaultWrites,
  loopWrites,
  nameWrites,
  type Assignment,
  type ElementInfo,
  type MultiInstanceInfo,
  type Write,
} from './bpmn-props.ts';

export interface Option {
  value: string;
  label: string;
}

export interface PropertiesPanelProps {
  /** The selected element (null: nothing selected). Give the panel `key={info.id}`. */
  info: ElementInfo | null;
  users: Option[];
  roles: Option[];
  onWrite: (writes: Write[]) => void;
}

export function PropertiesPanel({ info, users, roles, onWrite }: PropertiesPanelProps) {
  const t = useT();
  if (!info)
    return (
      <Typography.Paragraph type="secondary" data-testid="designer-properties">
        {t('designer.selectHint')}
      </Typography.Paragraph>
    );
  return (
    <Form layout="vertical" size="small" data-testid="designer-properties" aria-label={t('designer.properties')}>
      <Typography.Text type="secondary">
        {t(`designer.kind.${info.kind}`)} · {info.id}
      </Typography.Text>
      <NameField info={info} onWrite={onWrite} />
      {info.kind === 'userTask' && <AssignmentFields info={info} users={users} roles={roles} onWrite={onWrite} />}
      {info.kind === 'userTask' && <MultiInstanceFields info={info} onWrite={onWrite} />}
      {info.kind === 'sequenceFlow' && info.fromExclusive && <ConditionFields info={info} onWrite={onWrite} />}
    </Form>
  );
}

interface FieldsProps {
  info: ElementInfo;
  onWrite: (writes: Write[]) => void;
}

function NameField({ info, onWrite }: FieldsProps) {
  const t = useT();
  const [name, setName] = useState(info.name);
  return (
    <Form.Item label={t('designer.name')} htmlFor="designer-name">
      <Input
        id="designer-name"
        value={name}
        onChange={(e) => {
          setName(e.target.value);
          onWrite(nameWrites(info, e.target.value));
        }}
      />
    </Form.Item>
  );
}

const holdsExpression = (a: Assignment) => [a.assignee, ...a.candidateUsers, ...a.candidateGroups].some((v) => /[$#]\{/.test(v));

function AssignmentFields({ info, users, roles, onWrite }: FieldsProps & { users: Option[]; roles: Option[] }) {
  const t = useT();
  const lang = useAtomValue(langAtom);
  const initial: Assignment = { assignee: info.assignee, candidateUsers: info.candidateUsers, candidateGroups: info.candidateGroups };
  const [mode, setMode] = useState<'pick' | 'expression'>(holdsExpression(initial) ? 'expression' : 'pick');
  const [value, setValue] = useState(initial);
  // expressions are edited as the attribute's text (a list may mix names and ${…})
  const [texts, setTexts] = useState({
    assignee: initial.assignee,
    candidateUsers: initial.candidateUsers.join(','),
    candidateGroups: initial.candidateGroups.join(','),
  });

  const change = (next: Assignment) => {
    setValue(next);
    onWrite(assignmentWrites(info, next));
  };
  const changeText = (field: keyof typeof texts, text: string) => {
    const next = { ...texts, [field]: text };
    setTexts(next);
    if (Object.values(next).some((v) => checkTemplate(v, lang))) return;
    change({ assignee: next.assignee, candidateUsers: next.candidateUsers.split(','), candidateGroups: next.candidateGroups.split(',') });
  };
  const withUnknown = (options: Option[], values: string[]) => [
    ...options,
    ...values.filter((v) => !options.some((o) => o.value === v)).map((v) => ({ value: v, label: v })),
  ];

  return (
    <>
      <Divider titlePlacement="start" plain>
        {t('designer.handlers')}
      </Divider>
      <Form.Item>
        <Radio.Group
          value={mode}
          onChange={(e) => setMode(e.target.value)}
          optionType="button"
          size="small"
          options={[
            { value: 'pick', label: t('designer.mode.pick') },
            { value: 'expression', label: t('designer.mode.expression') },
          ]}
        />
      </Form.Item>
      {mode === 'pick' ? (
        <>
          <Form.Item label={t('designer.assignee')} htmlFor="designer-assignee">
            <Select
              id="designer-assignee"
              allowClear
              showSearch={{ optionFilterProp: 'label' }}
              value={value.assignee || undefined}
              options={withUnknown(users, value.assignee ? [value.assignee] : [])}
              onChange={(v?: string) => change({ ...value, assignee: v ?? '' })}
              placeholder={t('designer.assigneeHint')}
            />
          </Form.Item>
          <Form.Item label={t('designer.candidateUsers')} htmlFor="designer-candidate-users">
            <Select
              id="designer-candidate-users"
              mode="multiple"
              allowClear
              showSearch={{ optionFilterProp: 'label' }}
              value={value.candidateUsers}
              options={withUnknown(users, value.candidateUsers)}
              onChange={(v: string[]) => change({ ...value, candidateUsers: v })}
            />
          </Form.Item>
          <Form.Item label={t('designer.candidateGroups')} htmlFor="designer-candidate-groups">
            <Select
              id="designer-candidate-groups"
              mode="multiple"
              allowClear
              showSearch={{ optionFilterProp: 'label' }}
              value={value.candidateGroups}
              options={withUnknown(roles, value.candidateGroups)}
              onChange={(v: string[]) => change({ ...value, candidateGroups: v })}
            />
          </Form.Item>
        </>
      ) : (
        (['assignee', 'candidateUsers', 'candidateGroups'] as const).map((field) => {
          const problem = checkTemplate(texts[field], lang);
          return (
            <Form.Item
              key={field}
              label={t(`designer.${field}`)}
              htmlFor={`designer-${field}-expr`}
              validateStatus={problem ? 'error' : undefined}
              help={problem ?? undefined}
            >
              <Input
                id={`designer-${field}-expr`}
                value={texts[field]}
                placeholder={field === 'assignee' ? '${applyUser}' : 'manager,${extraRole}'}
                onChange={(e) => changeText(field, e.target.value)}
              />
            </Form.Item>
          );
        })
      )}
    </>
  );
}

function ConditionFields({ info, onWrite }: FieldsProps) {
  const t = useT();
  const lang = useAtomValue(langAtom);
  const [condition, setCondition] = useState(info.condition);
  const [isDefault, setIsDefault] = useState(info.isDefault);
  const problem = isDefault ? null : checkCondition(condition, lang);
  return (
    <>
      <Divider titlePlacement="start" plain>
        {t('designer.flow')}
      </Divider>
      <Form.Item>
        <Checkbox
          checked={isDefault}
          onChange={(e) => {
            setIsDefault(e.target.checked);
            if (e.target.checked) setCondition('');
            onWrite(defaultWrites(info, e.target.checked));
          }}
        >
          {t('designer.defaultFlow')}
        </Checkbox>
      </Form.Item>
      <Form.Item
        label={t('designer.condition')}
        htmlFor="designer-condition"
        validateStatus={problem ? 'error' : undefined}
        help={problem ?? undefined}
      >
        <Input.TextArea
          id="designer-condition"
          autoSize={{ minRows: 2 }}
          disabled={isDefault}
          value={condition}
          placeholder="${amount > amountThreshold}"
          onChange={(e) => {
            setCondition(e.target.value);
            if (!checkCondition(e.target.value, lang, false)) onWrite(conditionWrites(info, e.target.value));
          }}
        />
      </Form.Item>
    </>
  );
}

const NO_LOOP: MultiInstanceInfo = { sequential: false, collection: '', elementVariable: 'assignee', completion: '' };

function MultiInstanceFields({ info, onWrite }: FieldsProps) {
  const t = useT();
  const lang = useAtomValue(langAtom);
  const [multi, setMulti] = useState<MultiInstanceInfo | null>(info.multi);
  const collectionProblem = multi
    ? multi.collection.trim()
      ? checkTemplate(multi.collection, lang)
      : t('designer.collectionRequired')
    : null;
  const completionProblem = multi ? checkCondition(multi.completion, lang, false) : null;
  const change = (next: MultiInstanceInfo | null) => {
    setMulti(next);
    const broken =
      next && (!next.collection.trim() || checkTemplate(next.collection, lang) || checkCondition(next.completion, lang, false));
    if (!broken) onWrite(loopWrites(info, next));
  };
  return (
    <>
      <Divider titlePlacement="start" plain>
        {t('designer.multi')}
      </Divider>
      <Form.Item label={t('designer.multiEnabled')} htmlFor="designer-multi">
        <Switch id="designer-multi" checked={multi !== null} onChange={(on) => change(on ? { ...NO_LOOP } : null)} />
      </Form.Item>
      {multi && (
        <>
          <Form.Item>
            <Radio.Group
              value={multi.sequential ? 'sequential' : 'parallel'}
              onChange={(e) => change({ ...multi, sequential: e.target.value === 'sequential' })}
              options={[
                { value: 'parallel', label: t('designer.parallel') },
                { value: 'sequential', label: t('designer.sequential') },
              ]}
            />
          </Form.Item>
          <Form.Item
            label={t('designer.collection')}
            htmlFor="designer-collection"
            validateStatus={collectionProblem ? 'error' : undefined}
            help={collectionProblem ?? undefined}
          >
            <Input
              id="designer-collection"
              value={multi.collection}
              placeholder="${signers}"
              onChange={(e) => change({ ...multi, collection: e.target.value })}
            />
          </Form.Item>
          <Form.Item label={t('designer.elementVariable')} htmlFor="designer-element-variable">
            <Input
              id="designer-element-variable"
              value={multi.elementVariable}
              onChange={(e) => change({ ...multi, elementVariable: e.target.value })}
            />
          </Form.Item>
          <Form.Item
            label={t('designer.completion')}
            htmlFor="designer-completion"
            validateStatus={completionProblem ? 'error' : undefined}
            help={completionProblem ?? undefined}
          >
            <Input
              id="designer-completion"
              value={multi.completion}
              placeholder="${nrOfCompletedInstances >= 2}"
              onChange={(e) => change({ ...multi, completion: e.target.value })}
            />
          </Form.Item>
          <Alert type="info" showIcon title={t('designer.multiHint')} />
        </>
      )}
    </>
  );
}
