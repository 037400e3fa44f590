// Messages the engine and the server answer with, in both languages. Placeholders are {name}.
import type { Label, Lang } from '../model/types.ts';

export const messages = {
  ok: { zh: '操作成功', en: 'Operation successful' },
  noData: { zh: '暂无承载数据', en: 'No data' },
  treeTop: { zh: '顶级', en: 'Top level' },
  saved: { zh: '新增成功', en: 'Added successfully' },
  updated: { zh: '更新成功', en: 'Updated successfully' },
  removed: { zh: '删除成功', en: 'Deleted successfully' },
  tokenMissing: { zh: '缺失令牌,鉴权失败', en: 'Token missing, authentication failed' },
  unauthorized: { zh: '请求未授权', en: 'Unauthorized request' },
  forbidden: { zh: '请求被拒绝', en: 'Request denied' },
  noPermission: { zh: '没有{action}{entity}的权限', en: 'No permission to {action} {entity}' },
  platformOnly: { zh: '仅平台管理租户可以修改{entity}', en: 'Only the platform tenant may change {entity}' },
  notFound: { zh: '{entity}不存在', en: '{entity} not found' },
  routeNotFound: { zh: '404 没找到请求', en: '404 request not found' },
  serverError: { zh: '服务器异常', en: 'Internal server error' },
  serverErrorLogged: {
    zh: '服务器异常,请将错误编号 {id} 告知管理员',
    en: 'Internal server error; please quote error number {id} to your administrator',
  },
  badRequest: { zh: '请求参数错误', en: 'Bad request' },
  pathEncoded: {
    zh: '请求路径中的 {code} 是无需编码的字符的百分号编码,请求被拒绝',
    en: 'The request path percent-encodes a character that needs no encoding ({code}); request refused',
  },
  badJson: { zh: '请求体不是有效的 JSON', en: 'The request body is not valid JSON' },
  missingParam: { zh: '缺少必要的请求参数: {param}', en: 'Missing required parameter: {param}' },
  badId: { zh: '参数 {param} 不是有效的编号: {value}', en: 'Parameter {param} is not a valid id: {value}' },
  badMonth: { zh: '参数 {param} 不是有效的月份(yyyy-MM): {value}', en: 'Parameter {param} is not a valid month (yyyy-MM): {value}' },
  repeatedParam: { zh: '参数 {param} 只能给出一次', en: 'Parameter {param} may be given only once' },
  ossHostRefused: {
    zh: '对象存储地址的主机 {host} 不在允许连接的主机列表中(ZS_OSS_HOSTS),未尝试连接',
    en: 'Host {host} of the object storage endpoint is not in the allowed hosts (ZS_OSS_HOSTS); no connection was attempted',
  },
  ossHostReserved: {
    zh: '对象存储地址的主机 {host} 是本机或本系统数据库所在的服务器,只有平台租户可以使用,未尝试连接',
    en: "Host {host} of the object storage endpoint is this machine or the application database's server: only the platform tenant may use it; no connection was attempted",
  },
  numberOutOfRange: { zh: '请求中的数值超出允许范围', en: 'A number in the request is out of range' },
  unknownFilter: { zh: '不支持按 {param} 查询', en: 'Cannot filter by {param}' },
  unknownSort: { zh: '不支持按 {param} 排序', en: 'Cannot sort by {param}' },
  badFilterValue: { zh: '查询条件 {field} 的值无效: {value}', en: 'Invalid value for filter {field}: {value}' },
  badPaging: { zh: '分页参数 {param} 无效: {value}', en: 'Invalid paging parameter {param}: {value}' },
  // saved reports (docs/messages-and-files.md#reports)
  reportUnknownEntity: { zh: '报表的数据对象 {entity} 不存在', en: 'The report names an unknown entity {entity}' },
  reportUnknownField: { zh: '{entity}没有可用于报表的字段 {field}', en: '{entity} has no field {field} a report may use' },
  reportNotNumeric: { zh: '{field}不是数值字段,不能求和', en: '{field} is not numeric and cannot be summed' },
  reportNoColumns: { zh: '请至少选择一列', en: 'Choose at least one column' },
  reportBadList: { zh: '应为字段名的列表(最多 100 个)', en: 'Expected a list of field names (at most 100)' },
  reportDuplicate: { zh: '字段重复', en: 'A field is listed twice' },
  reportBadFilter: { zh: '筛选条件格式无效', en: 'The filter is not a valid condition' },
  reportBadCondition: {
    zh: '{field}的筛选条件无效:应为一个运算符及其值',
    en: 'Invalid condition on {field}: expected one operator and its value',
  },
  reportUnknownPart: { zh: '报表定义不支持 {part}', en: 'A report definition has no part {part}' },
  reportSubtotal: { zh: '小计', en: 'Subtotal' },
  reportTotal: { zh: '合计', en: 'Total' },
  // floods, bad traffic and faults (docs/operations.md#limits-and-faults)
  bodyTooLarge: { zh: '请求体超过 {limit} MB 的上限', en: 'The request body exceeds the limit of {limit} MB' },
  unsupportedMediaType: {
    zh: '不支持的请求体类型 {type},请使用 application/json',
    en: 'Unsupported request body type {type}; use application/json',
  },
  bodyTooDeep: { zh: '请求体的嵌套超过 {limit} 层的上限', en: 'The request body is nested deeper than the limit of {limit} levels' },
  bodyTooManyKeys: {
    zh: '请求体中一个对象的字段超过 {limit} 个的上限',
    en: 'An object in the request body has more than the limit of {limit} fields',
  },
  bodyTooManyValues: { zh: '请求体的值超过 {limit} 个的上限', en: 'The request body holds more than the limit of {limit} values' },
  badTextCharacter: {
    zh: '{where} 含有不允许的字符(空字符或不成对的代理项)',
    en: '{where} contains a character that is not allowed (a NUL or an unpaired surrogate)',
  },
  requestTimeout: { zh: '请求发送过慢,已超时', en: 'The request was sent too slowly and timed out' },
  tooManyRequests: { zh: '请求过于频繁,请 {seconds} 秒后再试', en: 'Too many requests; try again in {seconds} seconds' },
  queryTimeout: {
    zh: '查询超过 {seconds} 秒未完成,已取消;请缩小查询范围或增加筛选条件',
    en: 'The query took longer than {seconds} seconds and was cancelled; narrow it down with filters',
  },
  databaseUnavailable: {
    zh: '数据库暂时不可用,请 {seconds} 秒后重试',
    en: 'The database is temporarily unavailable; retry in {seconds} seconds',
  },
  shuttingDown: { zh: '服务正在重启,请稍后重试', en: 'The server is restarting; retry shortly' },
  // field validation
  required: { zh: '{field}不能为空', en: '{field} is required' },
  // the same, as forms prompt for a missing value (请输入参数名称, 请选择封存)
  enter: { zh: '请输入{field}', en: 'please enter {field}' },
  choose: { zh: '请选择{field}', en: 'please select {field}' },
  type: { zh: '{field}的类型不正确,应为{type}', en: '{field} must be {type}' },
  maxLength: { zh: '{field}不能超过{limit}个字符', en: '{field} must be at most {limit} character(s)' },
  minLength: { zh: '{field}不能少于{limit}个字符', en: '{field} must be at least {limit} character(s)' },
  pattern: { zh: '{field}的格式不正确', en: '{field} has an invalid format' },
  format: { zh: '{field}的格式不正确,应为{format}', en: '{field} must be a valid {format}' },
  minimum: { zh: '{field}不能小于{limit}', en: '{field} must be at least {limit}' },
  maximum: { zh: '{field}不能大于{limit}', en: '{field} must be at most {limit}' },
  // x-rules.atLeast: an end before its start, named by both fields (结算期止不能早于结算期起)
  notBefore: { zh: '{field}不能早于{other}', en: '{field} cannot be earlier than {other}' },
  notBelowField: { zh: '{field}不能小于{other}', en: '{field} cannot be less than {other}' },
  exclusiveMinimum: { zh: '{field}必须大于{limit}', en: '{field} must be greater than {limit}' },
  exclusiveMaximum: { zh: '{field}必须小于{limit}', en: '{field} must be less than {limit}' },
  enum: { zh: '{field}的值不在可选范围内', en: '{field} has a value that is not allowed' },
  minItems: { zh: '{field}至少需要{limit}行', en: '{field} needs at least {limit} row(s)' },
  maxItems: { zh: '{field}最多{limit}行', en: '{field} allows at most {limit} row(s)' },
  tooManyRefs: { zh: '{field}最多可选{limit}项,提交了{count}项', en: '{field} allows at most {limit} item(s), {count} were sent' },
  invalid: { zh: '{field}的值无效', en: '{field} is invalid' },
  dictValue: { zh: '{field}的值 {value} 不在字典 {code} 中', en: '{field}: {value} is not an entry of dictionary {code}' },
  refMissing: { zh: '{field}引用的记录不存在: {value}', en: '{field} refers to a record that does not exist: {value}' },
  unique: { zh: '{field} {value} 已存在', en: '{field} {value} already exists' },
  detailRow: { zh: '{detail}第{row}行', en: '{detail} row {row}' },
  rowNotFound: { zh: '{detail}中的行不存在: {value}', en: 'Row of {detail} not found: {value}' },
  rowTwice: { zh: '{detail}第{row}行与前面的一行是同一行: {value}', en: 'Row {row} of {detail} is a row sent before it: {value}' },
  pickedElsewhere: { zh: '{field}不属于所选的{source}', en: '{field} is not a line of the selected {source}' },
  pickedTwice: {
    zh: '{field}与第{row}行重复,同一清单行在一张单据中只能选一次',
    en: '{field} repeats row {row}: a line can be picked once per document',
  },
  pickedTwicePer: {
    zh: '{field}与第{row}行重复,同一清单行在同一{per}下只能选一次',
    en: '{field} repeats row {row}: a line can be picked once per {per}',
  },
  hasChildren: { zh: '{entity}下还有子节点,不能删除', en: '{entity} still has child nodes and cannot be deleted' },
  permanent: { zh: '{name} 不能删除', en: '{name} cannot be deleted' },
  fixedRecord: {
    zh: '{entity}「{name}」由系统根据单据定义生成,不能修改或删除',
    en: 'The {entity} "{name}" is derived from its document type and cannot be changed or deleted',
  },
  sharedRecord: {
    zh: '{entity}「{name}」由平台提供,租户不能修改或删除,可新增本租户自己的{entity}',
    en: 'The {entity} "{name}" is provided by the platform: a tenant cannot change or delete it, but may add a {entity} of its own',
  },
  referenced: { zh: '{entity}已被{by}引用,不能删除', en: '{entity} is referenced by {by} and cannot be deleted' },
  referencedDisable: {
    zh: '{entity}已被{by}引用,不能删除,可以停用',
    en: '{entity} is referenced by {by} and cannot be deleted; disable it instead',
  },
  inheritedTerm: {
    zh: '{field}须与{ref}“{record}”的约定一致:{value}',
    en: '{field} must be the one of {ref} "{record}": {value}',
  },
  inheritedTermEmpty: {
    zh: '{field}须留空:{ref}“{record}”未约定',
    en: '{field} must stay empty: {ref} "{record}" sets none',
  },
  refInactive: { zh: '{field}: {entity}“{value}”已停用,不能选用', en: '{field}: {entity} "{value}" is disabled and cannot be chosen' },
  treeCycle: { zh: '{field}不能是自身或其下级', en: '{field} cannot be the record itself or one of its descendants' },
  clientAuthFailed: { zh: '客户端认证失败', en: 'Client authentication failed' },
  grantNotAllowed: { zh: '不支持的授权类型', en: 'Unsupported grant type' },
  captchaWrong: { zh: '验证码不正确', en: 'Incorrect captcha' },
  tenantNotFound: { zh: '租户ID未找到', en: 'Tenant not found' },
  tenantExpired: { zh: '租户授权已过期,请联系管理员', en: 'The tenant licence has expired; contact the administrator' },
  badCredentials: { zh: '用户名或密码错误', en: 'Wrong user name or password' },
  captchaRequired: {
    zh: '登录失败次数较多,请输入验证码后再登录',
    en: 'Several failed logins: enter the captcha to log in (Captcha-Key and Captcha-Code)',
  },
  accountPending: { zh: '账号正在等待管理员审核', en: 'The account is awaiting administrator approval' },
  accountDisabled: { zh: '账号已被停用', en: 'The account is disabled' },
  noRoles: { zh: '未获得用户的角色信息', en: 'The user has no role' },
  refreshInvalid: { zh: '刷新令牌已失效', en: 'The refresh token is no longer valid' },
  tooManyAttempts: { zh: '登录尝试过于频繁,请稍后再试', en: 'Too many login attempts; try again later' },
  registered: { zh: '注册成功,请等待管理员审核后登录', en: 'Registered; you can log in once an administrator approves the account' },
  registerClosed: { zh: '系统未开放注册', en: 'Registration is closed' },
  passwordMismatch: { zh: '两次输入的密码不一致', en: 'The two passwords entered do not match' },
  oldPasswordWrong: { zh: '原密码不正确', en: 'The old password is wrong' },
  passwordChangeRequired: {
    zh: '请先修改初始密码,修改后才能继续使用系统',
    en: 'Change your initial password first; the system opens once it is changed',
  },
  passwordUnchanged: { zh: '新密码不能与原密码相同', en: 'The new password must differ from the old one' },
  passwordIsInitial: { zh: '新密码不能是初始密码', en: 'The new password cannot be the initial password' },
  passwordFormat: { zh: '请填写原密码、新密码和确认密码', en: 'Enter the old password, the new one and its confirmation' },
  accountQuota: { zh: '租户账号额度已用完', en: 'The tenant has used up its account quota' },
  notSupportedYet: { zh: '{feature}暂不支持', en: '{feature} is not supported yet' },
  exportTooLarge: { zh: '导出的记录超过{limit}条,请缩小查询范围', en: 'More than {limit} records to export; narrow the search' },
  // importing users from a workbook (user/import-user)
  importFileType: {
    zh: '只能导入 .xlsx 格式的 Excel 文件(不支持 .xls 等其他格式,请在 Excel 中另存为 .xlsx): {name}',
    en: 'Only .xlsx Excel files can be imported (not .xls or any other format; save it as .xlsx in Excel): {name}',
  },
  importNotWorkbook: {
    zh: '文件 {name} 不是有效的 Excel 工作簿,未导入任何数据',
    en: 'File {name} is not a valid Excel workbook; nothing was imported',
  },
  importUnpackedTooLarge: {
    zh: '工作簿解压后超过 {limit},未导入任何数据',
    en: 'The workbook unpacks to more than {limit}; nothing was imported',
  },
  importNoHeader: {
    zh: '第1行须为导入模板的表头(至少有“{column}”列),未导入任何数据;请下载导入模板后填写',
    en: 'Row 1 must be the header row of the import template (with at least the column "{column}"); nothing was imported. Download the template and fill it in',
  },
  importNoRows: { zh: '文件中没有要导入的数据行', en: 'The file has no rows to import' },
  importTooManyRows: {
    zh: '一次最多导入 {limit} 行,文件中有 {count} 行,未导入任何数据;请分成几个文件导入',
    en: 'At most {limit} rows can be imported at once and the file has {count}; nothing was imported. Split it into several files',
  },
  importOtherTenant: {
    zh: '租户编号 {value} 不是当前租户,只能导入本租户的用户',
    en: 'Tenant ID {value} is not your tenant: only users of your own tenant can be imported',
  },
  importNameUnknown: { zh: '{field}中的“{value}”不存在', en: '{field}: "{value}" does not exist' },
  importNameAmbiguous: {
    zh: '{field}中的“{value}”有多个同名记录,无法确定是哪一个',
    en: '{field}: more than one record is named "{value}", so it is not known which one is meant',
  },
  importDone: {
    zh: '读取 {read} 行:新增 {created} 行,更新 {updated} 行,未导入 {refused} 行',
    en: 'Read {read} rows: {created} added, {updated} updated, {refused} refused',
  },
  // messages
  messageNoRecipients: {
    zh: '没有符合条件的消息接收人(只发给本租户正常状态的用户)',
    en: 'No recipient: messages reach only active users of your tenant',
  },
  messageSystemOnly: { zh: '审批消息只能由系统发送', en: 'Approval messages are sent by the system only' },
  // files
  fileMissing: { zh: '请选择要上传的文件(表单字段 file)', en: 'Choose a file to upload (form field file)' },
  fileNameMissing: { zh: '上传的文件没有文件名', en: 'The uploaded file has no name' },
  fileNameRefused: {
    zh: '文件名不合法(不能包含路径、..或特殊字符): {name}',
    en: 'File name not allowed (no paths, .. or special characters): {name}',
  },
  fileType: { zh: '不支持的文件类型: {ext},允许的类型: {allowed}', en: 'File type {ext} is not allowed; allowed: {allowed}' },
  fileEmpty: { zh: '文件内容为空', en: 'The file is empty' },
  fileTooLarge: { zh: '文件大小不能超过{limit}', en: 'The file must be at most {limit}' },
  fileContent: { zh: '文件内容与扩展名 {ext} 不符', en: 'The file content does not match its extension {ext}' },
  storageFailed: { zh: '文件存储失败,请检查对象存储配置', en: 'The file could not be stored; check the storage configuration' },
  // sms
  smsPhone: { zh: '手机号码格式不正确: {value}', en: 'Invalid mobile phone number: {value}' },
  smsTooManyPhones: { zh: '一次最多发送给{limit}个手机号码', en: 'At most {limit} phone numbers per message' },
  smsParams: { zh: '短信参数须为 JSON 对象,值为文本或数字', en: 'params must be a JSON object of texts or numbers' },
  smsNotConnected: {
    zh: '短信配置 {code} 的服务商尚未接入,请使用内置短信服务',
    en: 'The provider of SMS configuration {code} is not connected yet; use the built-in service',
  },
  // low-code tooling (/api/blade-develop)
  datasourceUrl: {
    zh: '连接地址须为 postgres://用户:密码@主机:端口/数据库、mysql://用户:密码@主机:端口/数据库 或 jdbc:postgresql://、jdbc:mysql://、jdbc:mariadb://主机:端口/数据库 的形式',
    en: 'The connection URL must look like postgres://user:password@host:port/database, mysql://user:password@host:port/database or jdbc:postgresql://, jdbc:mysql://, jdbc:mariadb://host:port/database',
  },
  datasourceDriverMismatch: {
    zh: '驱动 {driver} 与连接地址的数据库类型不符',
    en: "Driver {driver} does not match the connection URL's kind of database",
  },
  datasourceIncomplete: { zh: '请填写连接地址,或主机、数据库和用户名', en: 'Give a connection URL, or the host, database and user' },
  datasourceHostRefused: {
    zh: '主机 {host} 不在允许连接的主机列表中(ZS_DATASOURCE_HOSTS),未尝试连接',
    en: 'Host {host} is not in the allowed hosts (ZS_DATASOURCE_HOSTS); no connection was attempted',
  },
  datasourceHostReserved: {
    zh: '主机 {host} 是本机或本系统数据库所在的服务器,只有平台管理员可以连接,未尝试连接',
    en: "Host {host} is this machine or the application database's server: only the platform administrator may connect to it; no connection was attempted",
  },
  // one message whatever the cause (closed port, another service, refused login, no answer): the cause is in the server's log
  datasourceConnectFailed: {
    zh: '连接数据源 {name} 失败,请检查主机、端口、数据库、用户名和密码',
    en: 'Could not connect to data source {name}; check its host, port, database, user and password',
  },
  developMainDatabase: {
    zh: '只有平台租户可以读取本系统数据库的表结构,请选择数据源',
    en: 'Only the platform tenant may read the tables of the application database; choose a data source',
  },
  developTableNotFound: { zh: '数据表 {table} 不存在', en: 'Table {table} does not exist' },
  developMixedModels: { zh: '一次只能提交同一个数据模型的字段', en: 'The fields submitted together must belong to one data model' },
  developMenuParent: { zh: '上级菜单 {code} 不存在', en: 'There is no menu group {code}' },
  developNoFields: { zh: '数据模型 {model} 还没有字段', en: 'Data model {model} has no fields yet' },
  developInvalidSchema: { zh: '生成的单据定义未通过检查:{issues}', en: 'The generated schema did not pass the checks: {issues}' },
  developNotAdditive: {
    zh: '只能新增单据类型,不能修改已有的:{reason}。修改已有单据请编辑其文件并重启服务',
    en: 'Only new document types can be written, not changes to existing ones: {reason}. Edit an existing one in its file and restart the server',
  },
  // tenants on their own databases (tenant/datasource)
  tenantDatabaseAdminOnly: {
    zh: '只有平台管理员可以为租户配置数据源',
    en: "Only the platform administrator may set a tenant's data source",
  },
  tenantDatabaseNeedsPostgres: {
    zh: '租户独立数据库需要主数据库为 PostgreSQL(设置 DATABASE_URL),内嵌数据库不支持',
    en: 'Tenants on their own databases need a PostgreSQL main database (DATABASE_URL); the embedded database does not support them',
  },
  tenantDatabaseNotPostgres: {
    zh: '数据源 {name} 不是 PostgreSQL 数据库,租户独立数据库只能使用 PostgreSQL',
    en: 'Data source {name} is not a PostgreSQL database: tenants can only have their own database on PostgreSQL',
  },
  tenantDatabasePlatform: { zh: '平台租户的数据只能保存在主数据库', en: "The platform tenant's data stays on the main database" },
  tenantDatabaseSame: { zh: '租户 {tenantId} 的数据已在该数据库中', en: 'Tenant {tenantId} already has its data on that database' },
  tenantDatabaseMismatch: {
    zh: '迁移校验未通过(表 {table}:源 {source},目标 {target}),租户仍使用原数据库',
    en: 'The copy did not check out (table {table}: source {source}, target {target}); the tenant stays on its old database',
  },
  tenantMoving: {
    zh: '租户数据正在迁移到另一个数据库,请 {seconds} 秒后重试',
    en: "The tenant's data is being moved to another database; retry in {seconds} seconds",
  },
  // cumulatives (x-cumulative)
  cumulativeApproving: {
    zh: '{entity} {code} 正在审批中:同一{group}同时只能有一张单据在审批,请等其审批结束后再提交',
    en: '{entity} {code} is under approval: one document per {group} may be in approval at a time; submit once it is finished',
  },
  contractFinalized: {
    zh: '合同 {contract} 已由{entity} {code} 定案(审批通过),不能再保存或提交该合同的结算',
    en: 'Contract {contract} was finalised by {entity} {code} (approved): no further settlement of it can be saved or submitted',
  },
  finalNeedsApproved: {
    zh: '{entity} {code} 尚未审批通过:定案前,该合同的每张结算都须审批通过或删除',
    en: '{entity} {code} is not approved: before the final settlement every settlement of the contract must be approved or deleted',
  },
  cumulativePeriod: {
    zh: '{field} {period} 必须晚于已审批或审批中的 {last}:期次只能向后,不能补填以前的期次',
    en: '{field} {period} must be later than {last}, already approved or under approval: periods move forward only',
  },
  // early warnings: hard control (parameter warn.hardControl) refuses a submission with a critical warning
  warningHardControl: {
    zh: '预警硬控制已开启,{entity} {code} 不能提交:{details}',
    en: 'Hard control of warnings is on: {entity} {code} cannot be submitted: {details}',
  },
  previewNotDocument: {
    zh: '预警预览的请求体应为单据对象(表头字段及明细行)',
    en: 'The warning preview expects the document as a JSON object (header fields and detail lines)',
  },
  // the material ledger (docs/business-rules.md#material-ledger)
  stockShort: {
    zh: '库存不足:{goods} 在仓库 {warehouseName} 可用 {available},本单需要 {requested};库存不能为负',
    en: 'Not enough stock: {goods} in warehouse {warehouseName} has {available} available, this document needs {requested}; stock cannot go below zero',
  },
  stockMonthClosed: {
    zh: '仓库 {warehouseName} {month} 的收发存月报 {code} 已审批,{month} 及以前月份已结账,不能再过账 {period} 的单据',
    en: 'The monthly stock report {code} of warehouse {warehouseName} for {month} is approved: {month} and earlier months are closed, nothing dated {period} can be posted',
  },
  situationWarehouse: {
    zh: '收发存月报按仓库过账,提交前请选择仓库',
    en: 'A monthly stock report posts to one warehouse: choose the warehouse before submitting',
  },
  situationDuplicate: {
    zh: '仓库 {warehouseName} {period} 已有收发存月报 {code}(审批中或已审批),同一仓库每月只能有一份',
    en: 'Warehouse {warehouseName} already has a monthly stock report {code} for {period} (under approval or approved): one per warehouse and month',
  },
  situationCountExceeds: {
    zh: '盘点结存超过账面:{goods} 上月结存+本月收入+盘盈亏−调出为 {available},盘点结存 {counted};多出的数量请先以材料盘点(盘盈)入账',
    en: 'The count exceeds the books: {goods} has {available} (opening + received + gain/loss − transferred out), counted {counted}; post the surplus with a stocktake (gain) first',
  },
  turnoverExitExceeds: {
    zh: '退场数量超过在场数量:{goods} 在场 {available},本单退场 {requested}',
    en: 'Exit exceeds what is on site: {goods} has {available} on site, this document returns {requested}',
  },
  // workflows: the text comes from engine/workflow/messages.ts, rendered in both languages
  workflow: { zh: '{message}', en: '{message}' },
} as const satisfies Record<string, Label>;

export type MessageKey = keyof typeof messages;

export const typeNames: Record<string, Label> = {
  string: { zh: '文本', en: 'text' },
  number: { zh: '数字', en: 'a number' },
  integer: { zh: '整数', en: 'an integer' },
  boolean: { zh: '是/否', en: 'true or false' },
  array: { zh: '列表', en: 'a list' },
  object: { zh: '对象', en: 'an object' },
};

export const formatNames: Record<string, Label> = {
  date: { zh: '日期 yyyy-MM-dd', en: 'date yyyy-MM-dd' },
  datetime: { zh: '时间 yyyy-MM-dd HH:mm:ss', en: 'date-time yyyy-MM-dd HH:mm:ss' },
  month: { zh: '月份 yyyy-MM', en: 'month yyyy-MM' },
  email: { zh: '电子邮箱', en: 'email address' },
  uri: { zh: '网址', en: 'URL' },
};

/** Picks the language from an Accept-Language header: en when English is preferred, else zh. */
export function pickLang(acceptLanguage: string | undefined | null): Lang {
  if (!acceptLanguage) return 'zh';
  const first = acceptLanguage.split(',')[0]?.trim().toLowerCase() ?? '';
  return first.startsWith('en') ? 'en' : 'zh';
}

export function fill(template: string, params: Record<string, unknown> = {}): string {
  return template.replace(/\{(\w+)\}/g, (_, k: string) => (params[k] === undefined ? `{${k}}` : String(params[k])));
}

/** Renders a message of any table of Labels (this one, the workflow engine's); params that are Labels follow the language. */
export function render<K extends string>(
  table: Readonly<Record<K, Label>>,
  key: K,
  lang: Lang,
  params: Record<string, unknown> = {},
): string {
  const resolved: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(params)) resolved[k] = isLabel(v) ? v[lang] : v;
  return fill(table[key][lang], resolved);
}

/** Renders a message of this table. */
export function t(key: MessageKey, lang: Lang, params: Record<string, unknown> = {}): string {
  return render(messages, key, lang, params);
}

export function isLabel(v: unknown): v is Label {
  return typeof v === 'object' && v !== null && 'zh' in v && 'en' in v;
}
